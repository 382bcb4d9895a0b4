import FoundationEssentials
import LibZip
import Shared
import Streamer

/// A comic book archive described by its names: the file name of the archive, the names of
/// its entries (raw bytes, as a ZIP may hold them) and its `ComicInfo.xml`. The archive is
/// built in memory, sniffed, and parsed by ``ImageParser`` (pages in natural name order,
/// ignored entries, metadata and cover from ComicInfo), then read.
///
/// Input layout: lines separated by LF up to the first NUL byte — the first line is the
/// archive's file name, the others entry names — then the bytes of `ComicInfo.xml`, stored as
/// the entry whose name ends with `comicinfo.xml` (any case), else as `ComicInfo.xml`.
public enum ComicBookInput {
    static let maxEntries = 512
    /// A few bytes for each page (the parser reads names, not images).
    static let page: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    public static func consume(_ bytes: [UInt8]) {
        let split = bytes.firstIndex(of: 0) ?? bytes.endIndex
        var lines = bytes[..<split].split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        let comicInfo = split < bytes.endIndex ? Array(bytes[(split + 1)...]) : []
        let name = lines.isEmpty ? "fuzz.cbz" : String(decoding: lines.removeFirst(), as: UTF8.self)

        var entries: [(name: [UInt8], data: [UInt8])] = []
        var placedInfo = false
        for entryName in lines.prefix(maxEntries) where !entryName.isEmpty {
            let isInfo = String(decoding: entryName, as: UTF8.self).lowercased().hasSuffix("comicinfo.xml")
            entries.append((entryName, isInfo && !placedInfo ? comicInfo : page))
            placedInfo = placedInfo || isInfo
        }
        if !placedInfo { entries.append((Array("ComicInfo.xml".utf8), comicInfo)) }

        let archive: ZipArchive
        do {
            archive = try ZipArchive(reader: MemoryZipReader(data: Data(StoredZipWriter.archive(entries))))
        } catch {
            // Names libzip refuses (too many, or a central directory it cannot make sense of).
            return
        }
        let fetcher = ArchiveFetcher(archive: archive)
        defer { fetcher.close() }
        _ = FormatSniffer().sniff(archive: archive, hints: FormatHints(path: name))
        let asset = Asset(name: name, location: name, format: Format(kind: .cbz), fetcher: fetcher)
        let builder: PublicationBuilder?
        do {
            builder = try ImageParser().parse(asset: asset, fetcher: fetcher, warnings: ListWarningLogger())
        } catch {
            _ = error.userMessage
            return
        }
        guard let builder else { return }
        PublicationProbe.probe(builder.build())
    }
}

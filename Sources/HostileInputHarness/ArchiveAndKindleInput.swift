import FoundationEssentials
import LibArchive
import Shared
import Streamer

/// Comic books in RAR, 7z and tar archives (libarchive, read from memory), and Mobipocket/KF8
/// books (libmobi, read from a stream over memory), parsed as Lectern opens them and then
/// used: every page, part and image is read. Small limits keep a bomb cheap to find.
public enum ArchiveAndKindleInput {
    static let limits = ArchiveLimits(maxEntries: 2_000, maxEntrySize: 8 << 20, cacheSize: 16 << 20)

    /// The input is the archive.
    public static func consumeComicArchive(_ bytes: [UInt8]) {
        let archive: StreamingArchive
        do {
            archive = try StreamingArchive(data: Data(bytes), name: "fuzz.cb7", limits: limits)
        } catch {
            _ = error.description
            return
        }
        let fetcher = ComicArchiveFetcher(archive: archive)
        defer { fetcher.close() }
        HarnessInvariant.check(archive.cachedBytes <= limits.cacheSize, "the decoded pages kept exceed the cache")
        let asset = Asset(name: "fuzz.cb7", location: "fuzz.cb7", format: Format(kind: .cb7), fetcher: fetcher)
        guard let builder = try? ComicArchiveParser(limits: limits).parse(asset: asset, fetcher: fetcher, warnings: ListWarningLogger()) else {
            return
        }
        PublicationProbe.probe(builder.build())
        HarnessInvariant.check(archive.cachedBytes <= limits.cacheSize, "the decoded pages kept exceed the cache")
    }

    /// The input is the book.
    public static func consumeMOBI(_ bytes: [UInt8]) {
        let fetcher = MemoryFetcher([("fuzz.mobi", Data(bytes))])
        let asset = Asset(name: "fuzz.mobi", location: "fuzz.mobi", format: Format(kind: .mobi), fetcher: fetcher)
        do {
            guard let builder = try MOBIParser(maxFileSize: 1 << 20).parse(asset: asset, fetcher: fetcher, warnings: ListWarningLogger()) else {
                HarnessInvariant.check(false, "the MOBI parser declined a MOBI asset")
                return
            }
            PublicationProbe.probe(builder.build())
        } catch {
            _ = error.userMessage
        }
    }
}

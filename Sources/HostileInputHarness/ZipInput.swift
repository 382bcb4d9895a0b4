import FoundationEssentials
import LibZip
import Shared
import Streamer

/// A ZIP archive read from memory through ``ZipRandomAccessReader`` (the path remote
/// publications take): central directory, local headers, every entry read whole or in part,
/// without a password, then with the samples' password ("secret": traditional PKWARE through
/// libzip), then through ``ZIPPasswordContentProtection`` (WinZip AES through the Streamer).
public enum ZipInput {
    /// The password of the protected samples the seeds are made from.
    static let password = "secret"
    /// Entries larger than this are only read in part: a small deflate stream may declare, and
    /// inflate to, hundreds of megabytes, which would make one input take seconds.
    static let maxWholeRead: UInt64 = 1 << 20
    static let partialRead: Range<UInt64> = 0..<(64 << 10)

    public static func consume(_ bytes: [UInt8]) async {
        let data = Data(bytes)
        do {
            let archive = try ZipArchive(reader: MemoryZipReader(data: data))
            _ = FormatSniffer().sniff(archive: archive)
            readEveryEntry(of: archive)
            archive.setPassword(password)
            readEveryEntry(of: archive)
            archive.close()
        } catch {
            _ = error.description
            return
        }
        await openWithPassword(data)
    }

    static func readEveryEntry(of archive: ZipArchive) {
        for entry in archive.entries {
            _ = (entry.isDirectory, entry.isStored, entry.encryption)
            _ = archive.extraField(0x5455, of: entry)
            _ = archive.entry(at: entry.path)
            do {
                if entry.size <= maxWholeRead {
                    _ = try archive.read(entry)
                }
                _ = try archive.read(entry, range: partialRead)
                if entry.compressedSize <= maxWholeRead {
                    _ = try archive.readRaw(entry)
                }
            } catch {
                _ = error.resourceError
            }
        }
    }

    /// Opens the archive as an EPUB with the password, as `lectern --password secret` would,
    /// and reads every resource through the decrypting fetcher.
    static func openWithPassword(_ data: Data) async {
        let archive: ZipArchive
        do {
            archive = try ZipArchive(reader: MemoryZipReader(data: data))
        } catch {
            return
        }
        let fetcher = ArchiveFetcher(archive: archive)
        defer { fetcher.close() }
        let asset = Asset(name: "fuzz.epub", location: "fuzz.epub", format: Format(kind: .epub), fetcher: fetcher)
        let protected: ProtectedAsset?
        do {
            protected = try await ZIPPasswordContentProtection().open(
                asset: asset, fetcher: fetcher, credentials: password, allowUserInteraction: false,
                sender: nil, onAskCredentials: nil)
        } catch {
            _ = error.userMessage
            return
        }
        let reading = protected?.fetcher ?? fetcher
        for link in reading.links {
            let resource = reading.get(link)
            if case .success(let length) = resource.length, length <= maxWholeRead {
                _ = resource.read()
            }
            _ = resource.read(range: partialRead)
            resource.close()
        }
    }
}

/// A ZIP archive held in memory, read as libzip asks.
struct MemoryZipReader: ZipRandomAccessReader {
    let data: Data

    func size() throws(ZipError) -> UInt64 { UInt64(data.count) }

    func read(range: Range<UInt64>) throws(ZipError) -> Data {
        guard range.upperBound <= UInt64(data.count) else { throw .readFailed("read past the end of the archive") }
        return data.subdata(in: Int(range.lowerBound)..<Int(range.upperBound))
    }
}

import FoundationEssentials
import LibZip
import Shared
import Synchronization

/// A WinZip AES entry of a password-protected archive, served decrypted.
///
/// The whole entry is decrypted, authenticated and decompressed on the first read and kept
/// while the resource is open; ranges are slices of it. Counter mode could decrypt a range
/// of a stored entry on its own (``AESLittleEndianCounterMode`` takes a starting block), but
/// the authentication code covers the whole entry and deflated entries must be inflated from
/// the start anyway, so serving unauthenticated slices is not worth it for publication
/// resources, which are read whole.
final class WinZipAESEntryResource: Resource {
    let link: Link
    let entry: ZipEntry
    private let reader: WinZipAESEntryReader
    private let cache = Mutex<ResourceResult<Data>?>(nil)

    init(link: Link, entry: ZipEntry, reader: WinZipAESEntryReader) {
        self.link = link
        self.entry = entry
        self.reader = reader
    }

    /// The declared size, without decrypting anything.
    var length: ResourceResult<UInt64> { .success(entry.size) }

    func read(range: Range<UInt64>?) -> ResourceResult<Data> {
        content.map { $0.slice(range) }
    }

    private var content: ResourceResult<Data> {
        cache.withLock { cached in
            if let cached { return cached }
            let result: ResourceResult<Data>
            do throws(WinZipAESError) {
                result = .success(try reader.read(entry))
            } catch {
                result = .failure(error.resourceError)
            }
            cached = result
            return result
        }
    }

    func close() {
        cache.withLock { $0 = nil }
    }
}

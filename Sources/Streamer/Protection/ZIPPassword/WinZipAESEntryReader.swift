import FoundationEssentials
import LibZip
import Zlib

/// Reads whole WinZip AES entries of an archive with a known password: raw bytes through
/// libzip, decryption with ``WinZipAESEntry``, then decompression and the size and CRC checks
/// libzip would have made.
struct WinZipAESEntryReader: Sendable {
    let archive: ZipArchive
    /// The password as the archive's writer encoded it.
    let password: [UInt8]

    /// DEFLATE cannot expand data more than about 1032 times: a larger declared size is a lie,
    /// refused before anything is allocated.
    static let maxDeflateRatio: UInt64 = 1032

    /// The entry's uncompressed content.
    func read(_ entry: ZipEntry) throws(WinZipAESError) -> Data {
        guard case .winZipAES(let keyLength) = entry.encryption else { throw .archive(.unsupportedEncryption(entry.encryptionMethod)) }
        try Self.checkDeclaredSizes(entry, keyLength: keyLength)
        let raw: Data
        do {
            raw = try archive.readRaw(entry)
        } catch {
            throw .archive(error)
        }
        guard UInt64(raw.count) == entry.compressedSize else { throw .truncated }
        let decrypted = try WinZipAESEntry(raw: Array(raw), keyLength: keyLength).decrypt(password: password)

        let content: [UInt8]
        switch entry.compressionMethod {
        case 0:
            content = decrypted
        case 8:
            do {
                // The declared size bounds the output: an entry cannot inflate past it.
                content = try Inflater.inflate(decrypted, wrapping: .raw, sizeHint: Int(entry.size), maxOutput: Int(entry.size))
            } catch .tooLarge(_) {
                throw .expandsPastDeclaredSize(entry.size)
            } catch {
                throw .decompression(error)
            }
        default:
            throw .unsupportedCompression(entry.compressionMethod)
        }
        guard UInt64(content.count) == entry.size else { throw .sizeMismatch(declared: entry.size, actual: content.count) }
        // AE-1 keeps the CRC of the plaintext, AE-2 sets it to 0 (libzip hides the 0x9901
        // field that tells them apart, so the CRC field decides). A true CRC of 0 under AE-1
        // goes unchecked, which the authentication code makes harmless.
        if entry.crc != 0, CRC32.checksum(content) != entry.crc { throw .checksumMismatch }
        return Data(content)
    }

    /// Refuses sizes no honest entry has, before reading or allocating anything.
    static func checkDeclaredSizes(_ entry: ZipEntry, keyLength: Int) throws(WinZipAESError) {
        let overhead = UInt64(keyLength / 2 + WinZipAESEntry.verifierLength + WinZipAESEntry.authenticationCodeLength)
        guard entry.compressedSize >= overhead else { throw .truncated }
        guard entry.size <= ZipArchive.maxWholeEntrySize, entry.compressedSize <= ZipArchive.maxWholeEntrySize else {
            throw .implausibleSize(max(entry.size, entry.compressedSize))
        }
        let payload = entry.compressedSize - overhead
        switch entry.compressionMethod {
        case 0:
            guard entry.size == payload else { throw .sizeMismatch(declared: entry.size, actual: Int(payload)) }
        case 8:
            guard entry.size <= payload * maxDeflateRatio + 1024 else { throw .implausibleSize(entry.size) }
        default:
            throw .unsupportedCompression(entry.compressionMethod)
        }
    }
}

import LibCrypto
import LibZip
import Shared
import Zlib

/// Why an entry encrypted with WinZip AES could not be read.
public enum WinZipAESError: Error, Sendable, CustomStringConvertible, UserMessageConvertible {
    /// The password verifier does not match: wrong password.
    case wrongPassword
    /// The password is right but the authentication code does not match the encrypted data:
    /// the entry was damaged or altered.
    case authenticationFailed
    /// The entry is shorter than its salt, verifier and authentication code.
    case truncated
    /// The entry is compressed with a method Lectern cannot decompress (only stored and
    /// deflated are read).
    case unsupportedCompression(UInt16)
    /// The declared size is beyond what Lectern reads in memory, or beyond what the
    /// compressed data can expand to.
    case implausibleSize(UInt64)
    /// The data inflates to more than the declared size.
    case expandsPastDeclaredSize(UInt64)
    /// The data does not have the declared size.
    case sizeMismatch(declared: UInt64, actual: Int)
    /// The AE-1 CRC-32 of the decrypted data does not match.
    case checksumMismatch
    /// The decrypted data is not valid DEFLATE.
    case decompression(InflateError)
    /// libzip could not read the raw entry.
    case archive(ZipError)
    /// OpenSSL failed.
    case crypto(CryptoError)

    public var userMessage: String {
        switch self {
        case .wrongPassword: "wrong password (the WinZip AES password verifier does not match)"
        case .authenticationFailed: "damaged entry: its WinZip AES authentication code does not match the data"
        case .truncated: "damaged entry: too short for WinZip AES encryption"
        case .unsupportedCompression(let method): "unsupported compression method \(method) in a WinZip AES entry"
        case .implausibleSize(let size): "the entry declares an implausible size (\(size) bytes)"
        case .expandsPastDeclaredSize(let size): "damaged entry: it expands past its declared \(size) bytes"
        case .sizeMismatch(let declared, let actual): "damaged entry: \(actual) bytes instead of the declared \(declared)"
        case .checksumMismatch: "damaged entry: the CRC-32 of the decrypted data does not match"
        case .decompression(let error): "damaged entry: \(error)"
        case .archive(let error): error.description
        case .crypto(let error): "decryption failed (\(error))"
        }
    }

    public var description: String { userMessage }

    /// The error a reader sees.
    var resourceError: ResourceError {
        switch self {
        case .wrongPassword: .forbidden(self)
        case .archive(let error): error.resourceError
        default: .other(self)
        }
    }
}

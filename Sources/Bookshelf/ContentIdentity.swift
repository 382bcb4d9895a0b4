import FoundationEssentials
import LibCrypto
#if canImport(Glibc)
import Glibc
#endif

/// What identifies a publication's content wherever its file lies, so that moving or renaming
/// a file keeps its reading position and bookmarks (an absolute path would not).
///
/// The package's unique identifier with the file's size in bytes (an edition changed in
/// place changes size); without an identifier, the SHA-256 of the file. A folder (exploded
/// publication) without identifier falls back to its path.
public enum ContentIdentity {
    public static func of(path: String, identifier: String?) -> String {
        let size = fileSize(path)
        if let identifier, !identifier.isEmpty {
            return "id:\(identifier)#\(size.map(String.init) ?? "dir")"
        }
        if size != nil, let hash = sha256(ofFile: path) { return "sha256:\(hash)" }
        return "path:\(path)"
    }

    /// The size of a regular file; nil for folders and missing files.
    static func fileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    static func sha256(ofFile path: String) -> String? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var digest = Digest(.sha256)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            digest.update(buffer[0..<count])
        }
        return digest.finalize().map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    /// A file name for what is cached about `identity`: the hex SHA-256 of the identity (an
    /// identity holds the publication's own identifier, which may contain anything). Not
    /// through OpenSSL: this runs before or just after a first page (see ``SmallSHA256``).
    public static func cacheName(of identity: String) -> String {
        SmallSHA256.hash(Array(identity.utf8)).hexString
    }
}

import FoundationEssentials
import LibCrypto
import Shared
#if canImport(Glibc)
import Glibc
#endif

/// Encrypts remembered ZIP passwords (AES-256-CBC, then HMAC-SHA-256 over IV and ciphertext)
/// with a random key kept in its own file, mode 0600, apart from the library database.
///
/// An LCP passphrase can be remembered as its SHA-256, since that hash is the LCP user key;
/// a ZIP archive needs the password itself, so it is sealed instead: the database alone — a
/// backup, a synced copy — never shows a password, in clear or in a form that opens the book.
public struct PasswordSealing: Sendable {
    /// The key file: 64 random bytes (32 for AES, 32 for the HMAC), made on first use.
    public let keyPath: String

    public static var defaultKeyPath: String { XDGDirectories.data + "/passwords.key" }

    public init(keyPath: String = PasswordSealing.defaultKeyPath) {
        self.keyPath = keyPath
    }

    /// `password` sealed, as lower-case hex; nil when the key cannot be read or made.
    public func seal(_ password: String) -> String? {
        guard let key = key(creating: true) else { return nil }
        return Self.seal(password, key: key)
    }

    /// The password `sealed` holds; nil when it was not sealed with this key or was altered.
    public func open(_ sealed: String) -> String? {
        guard let key = key(creating: false) else { return nil }
        return Self.open(sealed, key: key)
    }

    /// `text` sealed with a 64-byte `key` (32 for AES, 32 for the HMAC), as lower-case hex:
    /// the primitive other sealed columns share (``QuoteSealing``).
    static func seal(_ text: String, key: [UInt8]) -> String? {
        guard key.count == 64 else { return nil }
        var plain = Array(text.utf8)
        let padding = 16 - plain.count % 16
        plain += [UInt8](repeating: UInt8(padding), count: padding)
        let iv = secureRandomBytes(16)
        guard let cipher = try? AESCBC.encrypt(key: key[0..<32], iv: iv, plaintext: plain),
              let mac = try? MessageAuthenticationCode.hmac(.sha256, key: key[32..<64], message: iv + cipher) else { return nil }
        return hex(iv + cipher + mac)
    }

    /// The text `sealed` holds under a 64-byte `key`; nil when it was sealed with another key
    /// or was altered.
    static func open(_ sealed: String, key: [UInt8]) -> String? {
        guard key.count == 64, let bytes = bytes(hex: sealed), bytes.count >= 16 + 16 + 32, (bytes.count - 48) % 16 == 0 else { return nil }
        let body = Array(bytes[0..<(bytes.count - 32)]), mac = bytes[(bytes.count - 32)...]
        guard let expected = try? MessageAuthenticationCode.hmac(.sha256, key: key[32..<64], message: body),
              MessageAuthenticationCode.isEqual(expected, mac),
              let plain = try? AESCBC.decrypt(key: key[0..<32], iv: body[0..<16], ciphertext: body[16...]),
              let padding = plain.last, padding >= 1, padding <= 16, Int(padding) <= plain.count else { return nil }
        return String(decoding: plain.dropLast(Int(padding)), as: UTF8.self)
    }

    private func key(creating: Bool) -> [UInt8]? {
        if let data = FileManager.default.contents(atPath: keyPath), data.count == 64 { return Array(data) }
        guard creating else { return nil }
        if let slash = keyPath.lastIndex(of: "/") { _ = XDGDirectories.ensure(String(keyPath[..<slash])) }
        // Created exclusively with mode 0600: never readable by others, even for a moment.
        let descriptor = Glibc.open(keyPath, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            // Another process made it first: use theirs.
            return FileManager.default.contents(atPath: keyPath).flatMap { $0.count == 64 ? Array($0) : nil }
        }
        defer { close(descriptor) }
        let key = secureRandomBytes(64)
        guard write(descriptor, key, key.count) == key.count else { unlink(keyPath); return nil }
        return key
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
            index += 2
        }
        return bytes
    }
}

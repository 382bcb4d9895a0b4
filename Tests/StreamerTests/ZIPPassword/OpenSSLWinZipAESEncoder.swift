import Foundation
import TestSupport

/// Re-encrypts the stored WinZip AES entries of a 7-Zip archive under another password with
/// the `openssl` command line tool (PBKDF2, AES-ECB key stream, HMAC), following the WinZip
/// AE specification independently of Lectern's code. 7-Zip refuses non-ASCII passwords for
/// ZIP archives, so this is how a test gets a WinZip AES archive with a UTF-8 password, and
/// it cross-checks Lectern's decryption against another implementation.
enum OpenSSLWinZipAESEncoder {
    /// Replaces the encrypted bytes of each entry (stored, so its plaintext is `entry.data`),
    /// keeping the salt, with the encryption of `password`'s UTF-8 bytes.
    static func reencrypt(_ path: String, entries: [PasswordArchives.Entry], keyLength: Int, password: String) throws {
        var patcher = try ZipPatcher(path: path)
        let scratch = Fixtures.temporaryDirectory("openssl-aes")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        for entry in entries where entry.encrypted {
            let range = patcher.dataRange(of: try patcher.record(entry.name))
            let saltLength = keyLength / 2
            precondition(range.count == saltLength + 2 + entry.data.count + 10, "\(entry.name) must be stored")
            let salt = Array(patcher.bytes[range.lowerBound..<(range.lowerBound + saltLength)])

            let derived = hexBytes(try openssl(["kdf", "-keylen", "\(2 * keyLength + 2)", "-kdfopt", "digest:SHA1",
                                                "-kdfopt", "hexpass:\(hex(Array(password.utf8)))", "-kdfopt", "hexsalt:\(hex(salt))",
                                                "-kdfopt", "iter:1000", "PBKDF2"]))
            let aesKey = Array(derived[0..<keyLength]), macKey = Array(derived[keyLength..<(2 * keyLength)])
            let verifier = Array(derived[(2 * keyLength)...])

            // Key stream: AES-ECB of the counter blocks 1, 2, 3… stored little-endian.
            let blocks = (entry.data.count + 15) / 16
            var counters = [UInt8](repeating: 0, count: blocks * 16)
            for block in 0..<blocks {
                withUnsafeBytes(of: UInt64(block + 1).littleEndian) { counters.replaceSubrange(block * 16..<block * 16 + 8, with: $0) }
            }
            try Data(counters).write(to: URL(fileURLWithPath: scratch + "/counters"))
            _ = try openssl(["enc", "-aes-\(keyLength * 8)-ecb", "-nopad", "-K", hex(aesKey),
                             "-in", scratch + "/counters", "-out", scratch + "/stream"])
            let stream = Array(try Data(contentsOf: URL(fileURLWithPath: scratch + "/stream")))
            let ciphertext = entry.data.enumerated().map { $0.element ^ stream[$0.offset] }

            try Data(ciphertext).write(to: URL(fileURLWithPath: scratch + "/cipher"))
            let mac = hexBytes(try openssl(["mac", "-digest", "SHA1", "-macopt", "hexkey:\(hex(macKey))",
                                            "-in", scratch + "/cipher", "HMAC"]))
            let raw = salt + verifier + ciphertext + mac.prefix(10)
            patcher.bytes.replaceSubrange(range, with: raw)
        }
        try patcher.write(to: path)
    }

    static func openssl(_ arguments: [String]) throws -> String {
        try ZipBuilder.run("/usr/bin/openssl", arguments)
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// Parses `AA:BB:…` or `AABB…` output.
    static func hexBytes(_ text: String) -> [UInt8] {
        let digits = Array(text.filter(\.isHexDigit))
        return stride(from: 0, to: digits.count - 1, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
    }
}

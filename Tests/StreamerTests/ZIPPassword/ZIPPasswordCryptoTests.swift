import Foundation
import LibCrypto
import LibZip
@testable import Streamer
import Testing

/// The primitives under WinZip AES and the password encodings, against published vectors.
@Suite struct ZIPPasswordCryptoTests {
    func hex(_ string: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = string.startIndex
        while index < string.endIndex {
            let next = string.index(index, offsetBy: 2)
            bytes.append(UInt8(string[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    /// RFC 6070 test vectors for PBKDF2-HMAC-SHA1.
    @Test func pbkdf2MatchesRFC6070() throws {
        #expect(try PBKDF2.deriveKey(password: Array("password".utf8), salt: Array("salt".utf8), iterations: 1, keyLength: 20)
            == hex("0c60c80f961f0e71f3a9b524af6012062fe037a6"))
        #expect(try PBKDF2.deriveKey(password: Array("password".utf8), salt: Array("salt".utf8), iterations: 4096, keyLength: 20)
            == hex("4b007901b765489abead49d926f721d065a429c1"))
        #expect(try PBKDF2.deriveKey(password: Array("passwordPASSWORDpassword".utf8),
                                     salt: Array("saltSALTsaltSALTsaltSALTsaltSALTsalt".utf8), iterations: 4096, keyLength: 25)
            == hex("3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038"))
        #expect(throws: CryptoError.self) { try PBKDF2.deriveKey(password: [1], salt: [2], iterations: 0, keyLength: 20) }
    }

    /// RFC 2202 test cases 1 and 2 for HMAC-SHA1.
    @Test func hmacMatchesRFC2202() throws {
        #expect(try MessageAuthenticationCode.hmac(.sha1, key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8))
            == hex("b617318655057264e28bc0b6fb378c8ef146be00"))
        #expect(try MessageAuthenticationCode.hmac(.sha1, key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
            == hex("effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"))
        #expect(MessageAuthenticationCode.isEqual([1, 2, 3], [1, 2, 3]))
        #expect(!MessageAuthenticationCode.isEqual([1, 2, 3], [1, 2, 4]))
        #expect(!MessageAuthenticationCode.isEqual([1, 2], [1, 2, 3]))
    }

    /// The first key-stream block is AES(key, counter 1 little-endian): checked against
    /// FIPS-197's AES-128 example by choosing that plaintext block as the counter block is
    /// not possible, so against AES-ECB of `01 00 … 00` computed by the `openssl` tool.
    @Test func counterModeUsesALittleEndianCounterFromOne() throws {
        let key = hex("000102030405060708090a0b0c0d0e0f")
        let counterOne = hex("01000000000000000000000000000000")
        let expected = try opensslECB(key: key, block: counterOne)
        var zeros = [UInt8](repeating: 0, count: 16)
        try AESLittleEndianCounterMode.apply(key: key, to: &zeros)
        #expect(zeros == expected)
        // The second block's counter is 2 in the first byte, not in the last.
        let counterTwo = hex("02000000000000000000000000000000")
        var two = [UInt8](repeating: 0, count: 32)
        try AESLittleEndianCounterMode.apply(key: key, to: &two)
        #expect(Array(two[16...]) == (try opensslECB(key: key, block: counterTwo)))
    }

    @Test(arguments: [16, 24, 32])
    func counterModeIsItsOwnInverseAndSeekable(keyLength: Int) throws {
        let key = (0..<keyLength).map { UInt8($0 &* 7) }
        let plain = (0..<100_003).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var data = plain
        try AESLittleEndianCounterMode.apply(key: key, to: &data)
        #expect(data != plain)
        // Block 10 onwards, decrypted on its own.
        var tail = Array(data[(9 * 16)...])
        try AESLittleEndianCounterMode.apply(key: key, to: &tail, firstCounter: 10)
        #expect(tail == Array(plain[(9 * 16)...]))
        try AESLittleEndianCounterMode.apply(key: key, to: &data)
        #expect(data == plain)
        var empty: [UInt8] = []
        try AESLittleEndianCounterMode.apply(key: key, to: &empty)
        #expect(throws: CryptoError.self) { try AESLittleEndianCounterMode.apply(key: [1, 2, 3], to: &data) }
    }

    @Test func crc32MatchesTheCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
        var incremental = CRC32()
        incremental.update(Array("12345".utf8))
        incremental.update(Array("6789".utf8)[...])
        #expect(incremental.value == 0xCBF4_3926)
    }

    @Test func passwordEncodings() {
        #expect(ZIPPasswordEncodings.cp437High.count == 128)
        #expect(ZIPPasswordEncodings.candidates(for: "secret") == [Array("secret".utf8)])
        #expect(ZIPPasswordEncodings.candidates(for: "äß") == [[0xC3, 0xA4, 0xC3, 0x9F], [0x84, 0xE1], [0xE4, 0xDF]])
        // € is neither in CP437 nor in ISO-8859-1; ½ is in both, at different places.
        #expect(ZIPPasswordEncodings.candidates(for: "€") == [[0xE2, 0x82, 0xAC]])
        #expect(ZIPPasswordEncodings.candidates(for: "½") == [[0xC2, 0xBD], [0xAB], [0xBD]])
        // Box drawing exists only in CP437.
        #expect(ZIPPasswordEncodings.candidates(for: "╬") == [[0xE2, 0x95, 0xAC], [0xCE]])
    }

    func opensslECB(key: [UInt8], block: [UInt8]) throws -> [UInt8] {
        let directory = NSTemporaryDirectory() + "/ecb-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let input = directory + "/in", output = directory + "/out"
        try Data(block).write(to: URL(fileURLWithPath: input))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["enc", "-aes-128-ecb", "-nopad", "-K", key.map { String(format: "%02x", $0) }.joined(),
                             "-in", input, "-out", output]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return Array(try Data(contentsOf: URL(fileURLWithPath: output)))
    }
}

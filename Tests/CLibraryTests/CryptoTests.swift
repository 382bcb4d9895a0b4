import Foundation
import LibCrypto
import Testing
import TestSupport

@Suite struct DigestTests {
    // FIPS 180 / NIST example vectors.
    @Test(arguments: [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709",
         "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d",
         "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("The quick brown fox jumps over the lazy dog", "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12",
         "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592"),
    ])
    func knownVectors(input: String, sha1: String, sha256: String) {
        #expect(Digest.sha1(Array(input.utf8)).hexString == sha1)
        #expect(Digest.sha256(Array(input.utf8)).hexString == sha256)
    }

    @Test func millionAs() {
        let input = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(Digest.sha1(input).hexString == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
        #expect(Digest.sha256(input).hexString == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func incrementalEqualsOneShotForAnyCollection() {
        let bytes = Array(compressibleText(lines: 300))
        var digest = Digest(.sha256)
        digest.update(bytes[0..<1000])
        digest.update(Data(bytes[1000..<5000]))
        digest.update(bytes[5000...].reversed().reversed()) // not contiguous
        digest.update([UInt8]())
        #expect(digest.finalize() == Digest.sha256(bytes))
        #expect(Digest.sha256(Data(bytes)).count == 32)
        #expect(Digest.sha1(bytes).count == 20)
    }

    @Test func hexString() {
        #expect([UInt8]([0x00, 0x0f, 0xa0, 0xff]).hexString == "000fa0ff")
        #expect([UInt8]().hexString == "")
    }

    @Test func secureRandomBytesDiffer() {
        let a = secureRandomBytes(32), b = secureRandomBytes(32)
        #expect(a.count == 32 && b.count == 32 && a != b)
        #expect(secureRandomBytes(0).isEmpty)
    }
}

@Suite struct AESCBCTests {
    /// Encrypts `plaintext` with the `openssl` command line.
    private func opensslEncrypt(_ plaintext: Data, key: [UInt8], iv: [UInt8], padding: Bool) throws -> [UInt8] {
        var arguments = ["openssl", "enc", "-aes-256-cbc", "-K", key.hexString, "-iv", iv.hexString]
        if !padding { arguments.append("-nopad") }
        return Array(try Command.run(arguments, input: plaintext))
    }

    @Test(arguments: [16, 64, 4096, 1_000_000])
    func decryptsWhatOpenSSLEncrypts(size: Int) throws {
        let key = secureRandomBytes(32), iv = secureRandomBytes(16)
        let plaintext = noise(count: size, seed: UInt64(size))
        let ciphertext = try opensslEncrypt(plaintext, key: key, iv: iv, padding: false)
        #expect(ciphertext.count == size)
        #expect(try AESCBC.decrypt(key: key, iv: iv, ciphertext: ciphertext) == Array(plaintext))
        // Each block is decrypted with the previous ciphertext block as IV (random access).
        if size >= 64 {
            let tail = try AESCBC.decrypt(key: key, iv: ciphertext[16..<32], ciphertext: ciphertext[32..<64])
            #expect(tail == Array(plaintext[32..<64]))
        }
    }

    @Test func paddingIsLeftToTheCaller() throws {
        let key = [UInt8](repeating: 0x11, count: 32), iv = [UInt8](repeating: 0x22, count: 16)
        let plaintext = Data("LCP uses its own padding".utf8) // 24 bytes → 8 bytes of PKCS#7 padding
        let ciphertext = try opensslEncrypt(plaintext, key: key, iv: iv, padding: true)
        #expect(ciphertext.count == 32)
        let decrypted = try AESCBC.decrypt(key: key, iv: iv, ciphertext: ciphertext)
        #expect(decrypted.count == 32)
        #expect(Array(decrypted.prefix(24)) == Array(plaintext))
        #expect(decrypted.suffix(8).allSatisfy { $0 == 8 })
    }

    @Test func knownVector() throws {
        // NIST SP 800-38A F.2.5 (CBC-AES256.Decrypt), first two blocks.
        let key = hex("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4")
        let iv = hex("000102030405060708090a0b0c0d0e0f")
        let ciphertext = hex("f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d")
        #expect(try AESCBC.decrypt(key: key, iv: iv, ciphertext: ciphertext).hexString
            == "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51")
    }

    @Test func invalidInputs() {
        let key = [UInt8](repeating: 1, count: 32), iv = [UInt8](repeating: 2, count: 16)
        #expect(throws: CryptoError.invalidKey) { try AESCBC.decrypt(key: key.dropLast(), iv: iv, ciphertext: [UInt8](repeating: 0, count: 16)) }
        #expect(throws: CryptoError.invalidKey) { try AESCBC.decrypt(key: [UInt8](), iv: iv, ciphertext: [UInt8](repeating: 0, count: 16)) }
        #expect(throws: CryptoError.self) { try AESCBC.decrypt(key: key, iv: iv.dropLast(), ciphertext: [UInt8](repeating: 0, count: 16)) }
        #expect(throws: CryptoError.self) { try AESCBC.decrypt(key: key, iv: iv, ciphertext: [UInt8](repeating: 0, count: 17)) }
        #expect(throws: CryptoError.self) { try AESCBC.decrypt(key: key, iv: iv, ciphertext: [UInt8](repeating: 0, count: 15)) }
        #expect((try? AESCBC.decrypt(key: key, iv: iv, ciphertext: [UInt8]())) == [])
    }
}

private func hex(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
        let next = text.index(index, offsetBy: 2)
        bytes.append(UInt8(text[index..<next], radix: 16)!)
        index = next
    }
    return bytes
}

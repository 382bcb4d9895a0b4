@testable import Bookshelf
import LibCrypto
import Testing

/// The Swift SHA-256 that names cache files gives OpenSSL's digest, so that the names of
/// caches written before it stay the same.
@Suite struct SmallSHA256Tests {
    @Test func knownVectors() {
        #expect(hex(SmallSHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(SmallSHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func sameAsOpenSSLAcrossBlockBoundaries() {
        var generator = SystemRandomNumberGenerator()
        for length in Array(0...200) + [1_000, 4_096, 65_537] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(SmallSHA256.hash(bytes) == Digest.sha256(bytes), "length \(length)")
        }
    }

    @Test func cacheNamesAreUnchanged() {
        let identity = "id:urn:uuid:é\u{0}😀#1234"
        #expect(ContentIdentity.cacheName(of: identity) == hex(Digest.sha256(Array(identity.utf8))))
    }

    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

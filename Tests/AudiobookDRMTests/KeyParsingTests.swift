import Foundation
@testable import AudiobookDRM
import LibCrypto
import Shared
import Testing
import TestSupport

/// RSA public keys from JWK `n`/`e` and from SPKI PEM (LibCrypto `PublicKey`), and key sets.
@Suite struct KeyParsingTests {
    /// The real signature and its canonical bytes.
    func realVector() throws -> (signature: [UInt8], message: [UInt8]) {
        let json = try JSONParser.parse(DRMTestKit.vectorBytes("feedbooks_2.json"))
        let value = try #require(json["metadata"]?[FeedbooksVocabulary.signatureKey]?["value"]?.string)
        return (try #require(Base64.decode(value)), SignedManifestCanonicalForm.bytes(SignedManifestCanonicalForm.unsigned(json)))
    }

    /// The bytes of a base64url JWK member.
    func decoded(_ text: String?) throws -> [UInt8] {
        try #require(text.flatMap(Base64.decode))
    }

    @Test func theRealJWKAndItsPEMAreTheSameKeyAndVerifyTheRealSignature() throws {
        let (signature, message) = try realVector()
        let jwk = try #require(try JSONParser.parse(DRMTestKit.vectorBytes("jwks_0.json"))["keys"]?.array?.first)
        let fromNE = try PublicKey.rsa(modulus: try decoded(jwk["n"]?.string), exponent: try decoded(jwk["e"]?.string))
        // The PEM member has a stray space after its first line break.
        let pem = try #require(jwk[FeedbooksVocabulary.pemKeyMember]?.string)
        #expect(pem.contains("\n MIIB"))
        let fromPEM = try PublicKey(pem: pem)
        for key in [fromNE, fromPEM] {
            #expect(key.kind == .rsa)
            #expect(key.bitCount == 2048)
            #expect(key.verifySignature(signature, of: message, algorithm: .rsaPKCS1v15SHA256))
            #expect(!key.verifySignature(signature, of: message + [0x20], algorithm: .rsaPKCS1v15SHA256))
            #expect(!key.verifySignature(signature, of: message, algorithm: .ecdsaSHA256Raw))
        }
        let set = try JSONWebKeySet(data: DRMTestKit.vectorBytes("jwks_0.json"))
        #expect(set.keys.count == 2)
        #expect(set.verifies(signature, of: message))
    }

    @Test func escapingSlashesBreaksTheRealSignature() throws {
        let (signature, message) = try realVector()
        let escaped = String(decoding: message, as: UTF8.self).replacingOccurrences(of: "/", with: "\\/")
        let set = try JSONWebKeySet(data: DRMTestKit.vectorBytes("jwks_0.json"))
        #expect(set.verifies(signature, of: message))
        #expect(!set.verifies(signature, of: Array(escaped.utf8)))
    }

    @Test func aKeyMadeByOpenSSLVerifiesOpenSSLSignatures() throws {
        let signer = DRMTestKit.signerA
        let message = Data("a message".utf8)
        let signature = [UInt8](try Command.run(["openssl", "dgst", "-sha256", "-sign", signer.privateKeyPath], input: message))
        let fromJWK = try PublicKey.rsa(modulus: try decoded(signer.jwk["n"]), exponent: [1, 0, 1])
        let fromPEM = try PublicKey(pem: signer.publicKeyPEM)
        #expect(fromJWK.verifySignature(signature, of: message, algorithm: .rsaPKCS1v15SHA256))
        #expect(fromPEM.verifySignature(signature, of: message, algorithm: .rsaPKCS1v15SHA256))
        var flipped = signature
        flipped[17] ^= 0x01
        #expect(!fromJWK.verifySignature(flipped, of: message, algorithm: .rsaPKCS1v15SHA256))
        #expect(!fromJWK.verifySignature(signature.dropLast(), of: message, algorithm: .rsaPKCS1v15SHA256))
        #expect(!fromJWK.verifySignature([], of: message, algorithm: .rsaPKCS1v15SHA256))
        // Leading zero bytes of a JWK integer are not significant.
        let padded = try PublicKey.rsa(modulus: [0, 0] + (try decoded(signer.jwk["n"])), exponent: [0, 1, 0, 1])
        #expect(padded.verifySignature(signature, of: message, algorithm: .rsaPKCS1v15SHA256))
    }

    @Test func badKeysAreErrorsNotCrashes() throws {
        #expect(throws: CryptoError.self) { try PublicKey(pem: "oops this is not really a certificate") }
        #expect(throws: CryptoError.self) { try PublicKey(pem: "-----BEGIN PUBLIC KEY-----\n!!!\n-----END PUBLIC KEY-----") }
        #expect(throws: CryptoError.self) { try PublicKey(pem: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----") }
        #expect(throws: CryptoError.self) { try PublicKey(pem: "-----BEGIN PUBLIC KEY-----\nMIIB") }
        #expect(throws: CryptoError.self) { try PublicKey.rsa(modulus: [], exponent: [1, 0, 1]) }
        #expect(throws: CryptoError.self) { try PublicKey.rsa(modulus: [0, 0], exponent: [1, 0, 1]) }
        #expect(throws: CryptoError.self) { try PublicKey.rsa(modulus: [UInt8](repeating: 0xFF, count: 5000), exponent: [1, 0, 1]) }
        #expect(throws: CryptoError.self) { try PublicKey(subjectPublicKeyInfoDER: [0x30, 0x03, 0x02, 0x01]) }
        #expect(throws: CryptoError.self) { try PublicKey(subjectPublicKeyInfoDER: []) }
    }

    @Test func keySetsWithoutUsableKeysAreUnparseable() throws {
        func reason(_ text: String) -> String? {
            do {
                _ = try JSONWebKeySet(data: Array(text.utf8))
                return nil
            } catch {
                return error.reason
            }
        }
        #expect(reason(String(decoding: DRMTestKit.vectorBytes("jwks_2.json"), as: UTF8.self))?.hasPrefix("not JSON") == true)
        #expect(reason("<html><body>Not here</body></html>")?.hasPrefix("not JSON") == true)
        #expect(reason(#"{"keys": "none"}"#) == "no `keys` array")
        #expect(reason(#"[1, 2]"#) == "no `keys` array")
        #expect(reason(#"{"keys": []}"#) == "no usable RSA public key")
        #expect(reason(#"{"keys": [{"kty": "EC", "crv": "P-256", "x": "AA", "y": "AA"}, 3, null, {"kty": "RSA", "n": "!!", "e": "AQAB"}]}"#)
            == "no usable RSA public key")
        // A 1024-bit key is too weak to trust.
        let weak = try AudiobookSigner(bits: 1024)
        #expect(reason(String(decoding: AudiobookSigner.keySet([weak]), as: UTF8.self)) == "no usable RSA public key")
        // Deep nesting is refused by the JSON parser, not the stack.
        #expect(reason(String(repeating: "[", count: 100_000))?.hasPrefix("not JSON") == true)
    }

    @Test func eitherFormOfAKeyIsEnoughOnItsOwn() throws {
        let (signature, message) = try realVector()
        let jwk = try #require(try JSONSerialization.jsonObject(with: DRMTestKit.vectorBytes("jwks_0.json")) as? [String: [[String: String]]])["keys"]![0]
        var pemOnly = jwk
        pemOnly["n"] = nil
        pemOnly["kty"] = "unknown"
        var neOnly = jwk
        neOnly[FeedbooksVocabulary.pemKeyMember] = nil
        for key in [pemOnly, neOnly] {
            let set = try JSONWebKeySet(data: try JSONSerialization.data(withJSONObject: ["keys": [key]]))
            #expect(set.keys.count == 1)
            #expect(set.verifies(signature, of: message))
        }
    }

    @Test func aSetWithSeveralKeysVerifiesWithAnyOfThem() throws {
        let set = try JSONWebKeySet(data: AudiobookSigner.keySet([DRMTestKit.signerA, DRMTestKit.signerB]))
        #expect(set.keys.count == 4)
        let message = Data("rotate".utf8)
        for signer in [DRMTestKit.signerA, DRMTestKit.signerB] {
            let signature = [UInt8](try Command.run(["openssl", "dgst", "-sha256", "-sign", signer.privateKeyPath], input: message))
            #expect(set.verifies(signature, of: [UInt8](message)))
        }
    }
}

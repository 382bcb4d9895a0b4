import Foundation
import LibCrypto
import Testing
import TestSupport

/// The OpenSSL wrappers used by LCP: certificates, chains at a given time, CRLs, signatures,
/// AES-CBC without padding — on the test PKI and hostile input.
@Suite struct CryptoWrapperTests {
    let pki = TestPKI.shared

    func certificate(_ signer: TestPKI.Signer) throws -> X509Certificate { try X509Certificate(der: signer.certificateDER) }
    func root() throws -> X509Certificate { try X509Certificate(pem: pki.caPEM) }
    func time(_ text: String) -> Int64 { Int64(ISO8601DateFormatter().date(from: text)!.timeIntervalSince1970) }

    @Test func certificateFieldsAndPEMRoundTrip() throws {
        let provider = try certificate(pki.expired)
        #expect(provider.subject == "CN = Provider 2020")
        #expect(provider.issuer == "CN = Lectern LCP Test CA")
        #expect(provider.notBefore == time("2020-01-01T00:00:00Z"))
        #expect(provider.notAfter == time("2021-01-01T00:00:00Z"))
        #expect(provider.isValid(at: time("2020-06-01T00:00:00Z")))
        #expect(!provider.isValid(at: time("2026-06-01T00:00:00Z")))
        #expect(!provider.serialNumberHex.isEmpty)
        let pem = try Shell.openssl(["x509", "-inform", "DER", "-outform", "PEM"], input: pki.expired.certificateDER)
        #expect(try X509Certificate(pem: String(decoding: pem, as: UTF8.self)).der == provider.der)
        let fingerprint = try Shell.openssl(["x509", "-inform", "DER", "-noout", "-fingerprint", "-sha256"], input: pki.expired.certificateDER)
        let expected = String(decoding: fingerprint, as: UTF8.self).split(separator: "=").last!
            .replacingOccurrences(of: ":", with: "").trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        #expect(provider.sha256Fingerprint.hexString == expected)
    }

    @Test func chainsAreVerifiedAtTheGivenTime() throws {
        let store = X509TrustStore(anchors: [try root()])
        #expect(store.verify(try certificate(pki.rsa), at: time("2026-06-01T00:00:00Z")).isValid)
        #expect(store.verify(try certificate(pki.expired), at: time("2020-06-01T00:00:00Z")).isValid)
        let expired = store.verify(try certificate(pki.expired), at: time("2026-06-01T00:00:00Z"))
        #expect(expired.isOutsideValidity && expired.depth == 0)
        #expect(store.verify(try certificate(pki.untrusted), at: time("2026-06-01T00:00:00Z")).isUntrusted)
        #expect(X509TrustStore(anchors: []).verify(try certificate(pki.rsa), at: time("2026-06-01T00:00:00Z")).isUntrusted)
    }

    @Test func crlsAreCheckedInTheStoreAndOnTheirOwn() throws {
        let crl = try X509CRL(pem: pki.crlPEM)
        let root = try root()
        #expect(crl.isIssued(by: root))
        #expect(!crl.isIssued(by: try certificate(pki.rsa)))
        #expect(crl.isRevoked(try certificate(pki.revoked)))
        #expect(!crl.isRevoked(try certificate(pki.rsa)))
        #expect(crl.thisUpdate != nil && crl.nextUpdate != nil)
        let der = try Shell.openssl(["crl", "-outform", "DER"], input: Data(pki.crlPEM.utf8))
        #expect(try X509CRL(pemOrDER: Array(der)).isRevoked(try certificate(pki.revoked)))
        #expect(try X509CRL(pemOrDER: Array(pki.crlPEM.utf8)).isIssued(by: root))

        let store = X509TrustStore(anchors: [root])
        let now = Int64(Date().timeIntervalSince1970)
        #expect(store.verify(try certificate(pki.revoked), at: now, crls: [crl]).isRevoked)
        #expect(store.verify(try certificate(pki.rsa), at: now, crls: [crl]).isValid)
        // With CRL checking on, a certificate without its issuer's CRL is not accepted.
        #expect(!store.verify(try certificate(pki.rsa), at: now, crls: [try X509CRL(pem: pki.otherCRLPEM)]).isValid)
    }

    @Test(arguments: [false, true])
    func signaturesVerifyOnlyForTheirMessage(ecdsa: Bool) throws {
        let signer = ecdsa ? pki.ecdsa : pki.rsa
        let message = Array("canonical bytes".utf8)
        let signature = try signer.sign(message)
        let provider = try certificate(signer)
        let algorithm: SignatureAlgorithm = ecdsa ? .ecdsaSHA256Raw : .rsaPKCS1v15SHA256
        #expect(provider.verifySignature(signature, of: message, algorithm: algorithm))
        #expect(!provider.verifySignature(signature, of: message + [0], algorithm: algorithm))
        var flipped = [UInt8](signature)
        flipped[flipped.count / 2] ^= 1
        #expect(!provider.verifySignature(flipped, of: message, algorithm: algorithm))
        // The wrong scheme for the key, or a truncated signature, is simply invalid.
        #expect(!provider.verifySignature(signature, of: message, algorithm: ecdsa ? .rsaPKCS1v15SHA256 : .ecdsaSHA256Raw))
        #expect(!provider.verifySignature(signature.prefix(10), of: message, algorithm: algorithm))
        #expect(!provider.verifySignature([], of: message, algorithm: algorithm))
    }

    @Test func rawECDSASignaturesConvertToTheDERThatOpenSSLWrites() throws {
        let message = Array("hello".utf8)
        let file = Fixtures.temporaryDirectory("ecdsa") + "/m"
        try Data(message).write(to: URL(fileURLWithPath: file))
        let der = try Shell.openssl(["dgst", "-sha256", "-sign", pki.ecdsa.keyPath, file])
        let raw = try TestPKI.Signer.rawECDSA(fromDER: [UInt8](der), half: 32)
        #expect(ECDSASignature.der(fromRaw: [UInt8](raw)) == [UInt8](der))
        #expect(try certificate(pki.ecdsa).verifySignature(der, of: message, algorithm: .ecdsaSHA256DER))
        #expect(ECDSASignature.der(fromRaw: []) == nil)
        #expect(ECDSASignature.der(fromRaw: [1, 2, 3]) == nil)
        #expect(ECDSASignature.der(fromRaw: [UInt8](repeating: 0xFF, count: 1000)) == nil)
    }

    @Test func garbageIsRefusedWithoutCrashing() {
        for bytes in [[], [0x30], [0x30, 0x82, 0xFF, 0xFF], Array("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----".utf8),
                      (0..<5000).map { _ in UInt8.random(in: 0...255) }] as [[UInt8]] {
            #expect(throws: CryptoError.self) { try X509Certificate(der: bytes) }
            #expect(throws: CryptoError.self) { try X509CRL(pemOrDER: bytes) }
        }
        #expect(throws: CryptoError.self) { try X509Certificate.certificates(pem: "no certificate here") }
        #expect(throws: CryptoError.self) { try X509CRL(pem: "<html>captive portal</html>") }
    }

    @Test func aesCBCEncryptionMatchesTheOpenSSLCommandLine() throws {
        let key = (0..<32).map { UInt8($0) }, iv = (0..<16).map { UInt8(100 + $0) }
        let plaintext = (0..<64).map { UInt8($0 * 3 % 256) }
        let ours = try AESCBC.encrypt(key: key, iv: iv, plaintext: plaintext)
        let theirs = try Shell.openssl(["enc", "-aes-256-cbc", "-nopad", "-K", key.hexString, "-iv", iv.hexString], input: Data(plaintext))
        #expect(ours == [UInt8](theirs))
        #expect(try AESCBC.decrypt(key: key, iv: iv, ciphertext: ours) == plaintext)
        #expect(throws: CryptoError.self) { try AESCBC.encrypt(key: key, iv: iv, plaintext: [1, 2, 3]) }
        #expect(throws: CryptoError.self) { try AESCBC.encrypt(key: [1], iv: iv, plaintext: plaintext) }
    }
}

extension CryptoWrapperTests {
    @Test func crlEncodingsRoundTrip() throws {
        let crl = try X509CRL(pem: pki.crlPEM)
        #expect(try X509CRL(der: crl.der).isRevoked(try certificate(pki.revoked)))
        #expect(try X509CRL(pem: crl.pem).der == crl.der)
        #expect(crl.pem.hasPrefix("-----BEGIN X509 CRL-----"))
    }
}

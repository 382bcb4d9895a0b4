import Foundation
import LCP
import LibCrypto
import Shared
import Testing
import TestSupport

/// The licenses of the public test vectors: parsing, canonical form, signature, certificate
/// policy, key check and content key (lcp.md §20).
@Suite struct LicenseVectorTests {
    @Test(arguments: SampleVector.legacy + [SampleVector.wastelandLicense])
    func canonicalFormMatchesTheVector(_ vector: SampleVector) throws {
        let license = try LicenseDocument(data: try vector.licenseData())
        #expect(license.id == vector.id)
        #expect(Digest.sha256(license.canonicalBytes).hexString == vector.canonicalSHA256)
    }

    @Test(arguments: SampleVector.legacy)
    func passphraseOpensTheLicenseAndGivesTheContentKey(_ vector: SampleVector) throws {
        let json = String(decoding: try vector.licenseData(), as: UTF8.self)
        let client = BasicProfileLCPClient()
        let hash = BasicProfileLCPClient.userKey(passphrase: vector.passphrase)
        #expect(client.findOneValidPassphrase(jsonLicense: json, hashedPassphrases: ["00", hash.uppercased()]) == hash)
        let context = try client.createContext(jsonLicense: json, hashedPassphrase: hash, pemCrl: nil)
        #expect(context.certificateTrust == .legacyTestCertificate)
        if !vector.userEmail.isEmpty {
            #expect(context.userFields["email"] == vector.userEmail)
            #expect(context.userFields["name"] == vector.userName)
        }
        // The content key, re-encrypted as a blob, round-trips through decrypt.
        let contentKey = try #require(Data(base64Encoded: vector.contentKeyBase64))
        let iv = [UInt8](repeating: 7, count: 16)
        var padded = Array(contentKey) + [UInt8](repeating: 0xAA, count: 15) + [16]
        padded = try AESCBC.encrypt(key: Array(contentKey), iv: iv, plaintext: padded)
        let blob = Data(iv + padded)
        #expect(client.decrypt(data: blob, using: context) == contentKey)
    }

    @Test func wastelandUserKeyIsTheSHA256OfDan() {
        #expect(BasicProfileLCPClient.userKey(passphrase: "dan") == "ec4f2dbb3b140095550c9afbbb69b5d6fd9e814b9da82fad0b34e9fcbe56f1cb")
        #expect(BasicProfileLCPClient.userKey(passphrase: "test") == "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")
    }

    /// No case folding, no trimming: near misses are wrong passphrases, not crashes or
    /// "corrupt data".
    @Test(arguments: [
        (SampleVector.daisy, "Test"), (SampleVector.daisy, "test "),
        (SampleVector.epubLCP, "Test"), (SampleVector.epubLCP, "test "),
        (SampleVector.wasteland, "Dan"), (SampleVector.wasteland, "dan "),
    ])
    func nearMissPassphrasesAreWrong(_ vector: SampleVector, _ passphrase: String) throws {
        let json = String(decoding: try vector.licenseData(), as: UTF8.self)
        let client = BasicProfileLCPClient()
        let hash = BasicProfileLCPClient.userKey(passphrase: passphrase)
        #expect(client.findOneValidPassphrase(jsonLicense: json, hashedPassphrases: [hash]) == nil)
        #expect {
            try client.createContext(jsonLicense: json, hashedPassphrase: hash, pemCrl: nil)
        } throws: { error in
            guard case LCPError.wrongPassphrase(let hint, _) = error else { return false }
            return !hint.isEmpty
        }
    }

    @Test(arguments: SampleVector.legacy)
    func strictPolicyRefusesTheLegacyCertificate(_ vector: SampleVector) throws {
        let json = String(decoding: try vector.licenseData(), as: UTF8.self)
        let client = BasicProfileLCPClient(trust: try LCPTrustSettings(policy: .strict))
        #expect {
            try client.createContext(jsonLicense: json, hashedPassphrase: BasicProfileLCPClient.userKey(passphrase: vector.passphrase), pemCrl: nil)
        } throws: { error in
            guard case LCPError.certificateUntrusted = error else { return false }
            return true
        }
    }

    @Test func referenceServerLicenseChainsToTheTestRootStrictly() throws {
        let vector = SampleVector.referenceServer
        let json = String(decoding: try vector.licenseData(), as: UTF8.self)
        let client = BasicProfileLCPClient(trust: try LCPTrustSettings(policy: .strict))
        let context = try client.createContext(jsonLicense: json, hashedPassphrase: BasicProfileLCPClient.userKey(passphrase: vector.passphrase), pemCrl: nil)
        #expect(context.certificateTrust == .chain)
    }

    @Test func embeddedRootIsTheSampleFile() throws {
        let embedded = try X509Certificate(pem: LCPTestCertificates.edrlabTestRootPEM)
        let file = try X509Certificate(pem: String(decoding: Fixtures.bytes(Fixtures.sample("lcp/edrlab-lcp-test-ca.pem")), as: UTF8.self))
        #expect(embedded.der == file.der)
        #expect(embedded.sha256Fingerprint.hexString == "a7df2433f90c1ccd7bd3e8f643c1cd19c053996cc93e3e3a4abe696e8abf2ddd")
    }
}

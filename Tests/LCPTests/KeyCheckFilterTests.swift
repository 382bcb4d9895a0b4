import Foundation
@testable import LCP
import LibCrypto
import Shared
import Testing

/// Finding the user key among many candidates: the one-block first test, then the full key
/// check, for ids of every length modulo the block size.
@Suite struct KeyCheckFilterTests {
    let client = BasicProfileLCPClient()

    func candidates(_ count: Int) -> [String] {
        (0..<count).map { _ in LicenseForge.randomBytes(32).hexString }
    }

    @Test(arguments: [1, 15, 16, 17, 31, 32, 36, 48])
    func theRightKeyIsFoundAmongManyForEveryIdLength(_ length: Int) throws {
        var spec = LicenseSpec()
        spec.id = String(repeating: "x", count: length - 1) + "z"
        let forged = try LicenseForge.make(spec)
        let right = BasicProfileLCPClient.userKey(passphrase: spec.passphrase)
        let keys = candidates(3000)
        #expect(client.findOneValidPassphrase(jsonLicense: forged.text, hashedPassphrases: keys) == nil)
        #expect(client.findOneValidPassphrase(jsonLicense: forged.text, hashedPassphrases: keys + [right]) == right)
        #expect(client.findOneValidPassphrase(jsonLicense: forged.text, hashedPassphrases: [right.uppercased()] + keys) == right)
        let filter = try #require(KeyCheckFilter(try LicenseDocument(data: forged.data)))
        #expect(filter.mayOpen(with: Hex.decode(right)!))
    }

    @Test func malformedCandidatesAreSkipped() throws {
        let forged = try LicenseForge.make(LicenseSpec())
        let right = BasicProfileLCPClient.userKey(passphrase: forged.spec.passphrase)
        let junk = ["", "zz", String(repeating: "g", count: 64), String(right.dropLast()), right + "0", "é" + String(right.dropFirst(2))]
        #expect(client.findOneValidPassphrase(jsonLicense: forged.text, hashedPassphrases: junk) == nil)
        #expect(client.findOneValidPassphrase(jsonLicense: forged.text, hashedPassphrases: junk + [right]) == right)
    }

    /// A key check that does not encrypt the id (a damaged or forged license) opens with no key,
    /// not even the one it was made with.
    @Test func aKeyCheckOfAnotherLengthOpensWithNothing() throws {
        let forged = try LicenseForge.make(LicenseSpec())
        let userKey = LicenseForge.userKey(forged.spec.passphrase)
        let other = Data(try LicenseForge.encrypt(Array((forged.id + "-and-more-than-that").utf8), key: userKey)).base64EncodedString()
        var object = try #require(forged.json.object)
        var encryption = try #require(object["encryption"]?.object)
        var user = try #require(encryption["user_key"]?.object)
        user["key_check"] = .string(other)
        encryption["user_key"] = .object(user)
        object["encryption"] = .object(encryption)
        let text = String(decoding: JSONWriter().bytes(.object(object)), as: UTF8.self)
        let document = try LicenseDocument(data: Array(text.utf8))
        #expect(KeyCheckFilter(document) == nil)
        #expect(client.findOneValidPassphrase(jsonLicense: text, hashedPassphrases: [BasicProfileLCPClient.userKey(passphrase: forged.spec.passphrase)]) == nil)
    }
}

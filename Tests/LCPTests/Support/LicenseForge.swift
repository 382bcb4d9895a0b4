import Foundation
import LCP
import LibCrypto
import Shared

/// Writes LCP licenses signed by the test PKI, as an LCP server would (basic profile).
struct LicenseSpec {
    var id = UUID().uuidString.lowercased()
    var provider = "https://provider.example.org"
    var issued = "2026-01-01T00:00:00Z"
    var updated: String?
    var passphrase = "open sesame"
    var hint = "The usual one"
    var hintLink = "https://provider.example.org/hint"
    var profile = LCPProfile.basic
    var userID: String? = "reader-1"
    var userName: String? = "Reader Name"
    var userEmail: String? = "reader@example.org"
    var rights: JSONObject = JSONObject(["print": .int(10), "copy": .int(100)])
    var statusURL: String?
    /// The `publication` link.
    var publicationURL = "https://provider.example.org/book.epub"
    var publicationType: String? = "application/epub+zip"
    var publicationTitle: String? = "Forged Book"
    var publicationLength: Int? = 1234
    var publicationHash: String? = String(repeating: "ab", count: 32)
    var signer: TestPKI.Signer = TestPKI.shared.rsa
    /// Extra top-level members (unknown to readers, still signed).
    var extra: JSONObject = JSONObject()
}

/// A forged license with what it was made from.
struct ForgedLicense {
    let spec: LicenseSpec
    let contentKey: [UInt8]
    let json: JSONValue
    /// The exact bytes, as delivered.
    let data: Data

    var text: String { String(decoding: data, as: UTF8.self) }
    var id: String { spec.id }

    /// The same document with its bytes changed by `transform` (tampering).
    func tampered(_ transform: (String) -> String) -> Data { Data(transform(text).utf8) }
}

enum LicenseForge {
    static func randomBytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255) } }

    /// `IV‖AES-256-CBC(key, plaintext + padding)` with XML-Encryption padding (random filler,
    /// last byte = pad length), as LCP servers write blobs.
    static func encrypt(_ plaintext: [UInt8], key: [UInt8]) throws -> [UInt8] {
        let pad = 16 - plaintext.count % 16
        let padded = plaintext + randomBytes(pad - 1) + [UInt8(pad)]
        let iv = randomBytes(16)
        return iv + (try AESCBC.encrypt(key: key, iv: iv, plaintext: padded))
    }

    static func userKey(_ passphrase: String) -> [UInt8] { Digest.sha256(Array(passphrase.utf8)) }

    static func publicationLink(_ spec: LicenseSpec) -> JSONObject {
        var link = JSONObject(["rel": .string("publication"), "href": .string(spec.publicationURL)])
        if let type = spec.publicationType { link["type"] = .string(type) }
        if let title = spec.publicationTitle { link["title"] = .string(title) }
        if let length = spec.publicationLength { link["length"] = .int(length) }
        if let hash = spec.publicationHash { link["hash"] = .string(hash) }
        return link
    }

    static func make(_ spec: LicenseSpec, contentKey: [UInt8] = randomBytes(32)) throws -> ForgedLicense {
        let userKey = userKey(spec.passphrase)
        var object = JSONObject()
        object["provider"] = .string(spec.provider)
        object["id"] = .string(spec.id)
        object["issued"] = .string(spec.issued)
        if let updated = spec.updated { object["updated"] = .string(updated) }
        object["encryption"] = .object(JSONObject([
            "profile": .string(spec.profile),
            "content_key": .object(JSONObject([
                "algorithm": .string(LCPAlgorithm.aes256CBC),
                "encrypted_value": .string(Data(try encrypt(contentKey, key: userKey)).base64EncodedString()),
            ])),
            "user_key": .object(JSONObject([
                "algorithm": .string(LCPAlgorithm.sha256),
                "text_hint": .string(spec.hint),
                "key_check": .string(Data(try encrypt(Array(spec.id.utf8), key: userKey)).base64EncodedString()),
            ])),
        ]))
        var links: [JSONValue] = [
            .object(JSONObject(["rel": .string("hint"), "href": .string(spec.hintLink), "type": .string("text/html")])),
            .object(publicationLink(spec)),
        ]
        if let status = spec.statusURL {
            links.append(.object(JSONObject(["rel": .string("status"), "href": .string(status),
                                             "type": .string("application/vnd.readium.license.status.v1.0+json")])))
        }
        object["links"] = .array(links)
        var user = JSONObject()
        var encrypted: [JSONValue] = []
        if let userID = spec.userID { user["id"] = .string(userID) }
        for (name, value) in [("email", spec.userEmail), ("name", spec.userName)] {
            guard let value else { continue }
            user[name] = .string(Data(try encrypt(Array(value.utf8), key: userKey)).base64EncodedString())
            encrypted.append(.string(name))
        }
        if !encrypted.isEmpty { user["encrypted"] = .array(encrypted) }
        object["user"] = .object(user)
        object["rights"] = .object(spec.rights)
        for member in spec.extra.members { object[member.key] = member.value }

        let canonical = LicenseDocument.canonicalBytes(of: .object(object))
        let signature = try spec.signer.sign(canonical)
        object["signature"] = .object(JSONObject([
            "algorithm": .string(spec.signer.isEC ? LCPAlgorithm.ecdsaSHA256 : LCPAlgorithm.rsaSHA256),
            "certificate": .string(spec.signer.certificateDER.base64EncodedString()),
            "value": .string(signature.base64EncodedString()),
        ]))
        let json = JSONValue.object(object)
        return ForgedLicense(spec: spec, contentKey: contentKey, json: json, data: Data(JSONWriter().bytes(json)))
    }
}

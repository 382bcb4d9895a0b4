import FoundationEssentials
import Shared

/// A Readium LCP License Document (`.lcpl`, LCP §3), parsed from its raw bytes, which are kept
/// byte for byte: the signature covers every member, including those Lectern does not
/// understand, so the canonical form is always rebuilt from ``json``, never from this model.
public struct LicenseDocument: Sendable {
    /// The license identifier (a UUID with the reference servers); also the `key_check`
    /// plaintext.
    public let id: String
    public let issued: Date
    /// Set when the provider changed the license (renew, return).
    public let updated: Date?
    /// URI of the provider; passphrases are grouped by it.
    public let provider: String
    public let encryption: Encryption
    public let links: [LicenseLink]
    public let user: User
    public let rights: Rights
    public let signature: Signature
    /// The exact bytes received.
    public let data: Data
    /// The parsed JSON tree, members in order, numbers as written.
    public let json: JSONValue

    /// The date the certificate must have been valid at, and the one compared with a status
    /// document's `updated.license`: `updated ?? issued`.
    public var dateOfLastUpdate: Date { updated ?? issued }

    /// The document as text.
    public var text: String { String(decoding: data, as: UTF8.self) }

    /// The first link with `rel`.
    public func link(_ rel: String) -> LicenseLink? { links.first(withRel: rel) }

    /// The `publication` link (always present in a valid license).
    public var publicationLink: LicenseLink { links.first(withRel: LicenseRel.publication)! }

    /// `encryption` (LCP §3.3).
    public struct Encryption: Sendable, Hashable {
        /// The encryption profile, e.g. `http://readium.org/lcp/basic-profile`.
        public let profile: String
        public let contentKey: ContentKey
        public let userKey: UserKey
    }

    /// `encryption.content_key`.
    public struct ContentKey: Sendable, Hashable {
        public let algorithm: String
        /// IV‖AES-256-CBC(user key, content key), base64-decoded.
        public let encryptedValue: [UInt8]
    }

    /// `encryption.user_key`.
    public struct UserKey: Sendable, Hashable {
        public let algorithm: String
        /// What to show when asking for the passphrase.
        public let textHint: String
        /// IV‖AES-256-CBC(user key, license id), base64-decoded.
        public let keyCheck: [UInt8]
    }

    /// `user` (LCP §3.5): values listed in ``encrypted`` are base64 ciphertexts.
    public struct User: Sendable, Hashable {
        public let id: String?
        public let email: String?
        public let name: String?
        /// Names of the members encrypted with the user key.
        public let encrypted: [String]
        /// Every member, including extensions.
        public let json: JSONObject
    }

    /// `rights` (LCP §3.6).
    public struct Rights: Sendable, Hashable {
        /// Pages that may be printed over the license's life; nil = unlimited (absent or
        /// negative in the document).
        public let print: Int?
        /// Characters that may be copied over the license's life; nil = unlimited.
        public let copy: Int?
        public let start: Date?
        public let end: Date?
        /// Every member, including extensions.
        public let json: JSONObject
    }

    /// `signature` (LCP §5).
    public struct Signature: Sendable, Hashable {
        public let algorithm: String
        /// The provider certificate, DER.
        public let certificate: [UInt8]
        public let value: [UInt8]
    }

    /// Parses a license.
    ///
    /// - Throws: ``LCPError/invalidLicense(_:)`` when the bytes are not JSON, or a member
    ///   Readium requires is missing or malformed (`id`, `issued`, `provider`, `encryption`,
    ///   `links` with a `publication` link, `signature`).
    public init(data: some Collection<UInt8>) throws(LCPError) {
        let bytes = Data(data)
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw .invalidLicense(error.description)
        }
        guard let object = json.object else { throw .invalidLicense("the license is not a JSON object") }
        self.data = bytes
        self.json = json

        guard let id = object["id"]?.string, !id.isEmpty else { throw .invalidLicense("no `id`") }
        guard let provider = object["provider"]?.string, !provider.isEmpty else { throw .invalidLicense("no `provider`") }
        self.id = id
        self.provider = provider
        issued = try Self.requiredDate(object["issued"], "issued")
        updated = try Self.optionalDate(object["updated"], "updated")
        encryption = try Self.parseEncryption(object["encryption"])
        links = try LicenseLink.array(object["links"] ?? .array([]), in: "license")
        guard links.first(withRel: LicenseRel.publication) != nil else { throw .invalidLicense("no `publication` link") }
        user = Self.parseUser(object["user"]?.object ?? JSONObject())
        rights = try Self.parseRights(object["rights"])
        signature = try Self.parseSignature(object["signature"])
    }

    private static func requiredDate(_ value: JSONValue?, _ name: String) throws(LCPError) -> Date {
        guard let text = value?.string, let date = RFC3339Date.parse(text) else {
            throw .invalidLicense("`\(name)` is missing or not a date")
        }
        return date
    }

    /// Absent is nil; present but unreadable is an error (ignoring a malformed `end` would
    /// extend a loan).
    private static func optionalDate(_ value: JSONValue?, _ name: String) throws(LCPError) -> Date? {
        guard let value, value != .null else { return nil }
        guard let text = value.string, let date = RFC3339Date.parse(text) else { throw .invalidLicense("`\(name)` is not a date") }
        return date
    }

    private static func base64(_ value: JSONValue?, _ name: String) throws(LCPError) -> [UInt8] {
        guard let text = value?.string, let data = Data(lenientBase64: text), !data.isEmpty else {
            throw .invalidLicense("`\(name)` is missing or not base64")
        }
        return Array(data)
    }

    private static func parseEncryption(_ json: JSONValue?) throws(LCPError) -> Encryption {
        guard let object = json?.object else { throw .invalidLicense("no `encryption`") }
        guard let profile = object["profile"]?.string else { throw .invalidLicense("no `encryption.profile`") }
        guard let contentKey = object["content_key"]?.object, let contentAlgorithm = contentKey["algorithm"]?.string else {
            throw .invalidLicense("no `encryption.content_key`")
        }
        guard let userKey = object["user_key"]?.object, let userAlgorithm = userKey["algorithm"]?.string,
              let hint = userKey["text_hint"]?.string
        else { throw .invalidLicense("no `encryption.user_key` with its `text_hint`") }
        return Encryption(
            profile: profile,
            contentKey: ContentKey(algorithm: contentAlgorithm,
                                   encryptedValue: try base64(contentKey["encrypted_value"], "encryption.content_key.encrypted_value")),
            userKey: UserKey(algorithm: userAlgorithm, textHint: hint,
                             keyCheck: try base64(userKey["key_check"], "encryption.user_key.key_check")))
    }

    private static func parseUser(_ object: JSONObject) -> User {
        User(id: object["id"]?.string, email: object["email"]?.string, name: object["name"]?.string,
             encrypted: object["encrypted"]?.strings ?? [], json: object)
    }

    private static func parseRights(_ json: JSONValue?) throws(LCPError) -> Rights {
        guard let json, json != .null else { return Rights(print: nil, copy: nil, start: nil, end: nil, json: JSONObject()) }
        guard let object = json.object else { throw .invalidLicense("`rights` is not an object") }
        // Absent means unlimited (LCP §3.6). A quota the license states but that is not a
        // non-negative integer — `-100`, `2.5`, `"10"` — grants nothing: a license that cannot
        // say how much it allows must not be read as allowing everything (some readers take a
        // negative value as unlimited; rights fail closed here).
        func quota(_ name: String) -> Int? {
            guard let value = object[name], value != .null else { return nil }
            guard case .number = value, let number = value.int, number >= 0 else { return 0 }
            return number
        }
        return Rights(print: quota("print"), copy: quota("copy"),
                      start: try optionalDate(object["start"], "rights.start"),
                      end: try optionalDate(object["end"], "rights.end"), json: object)
    }

    private static func parseSignature(_ json: JSONValue?) throws(LCPError) -> Signature {
        guard let object = json?.object, let algorithm = object["algorithm"]?.string else {
            throw .invalidLicense("no `signature`")
        }
        return Signature(algorithm: algorithm,
                         certificate: try base64(object["certificate"], "signature.certificate"),
                         value: try base64(object["value"], "signature.value"))
    }

    /// The bytes the signature covers (LCP §5.3): the document without its top-level
    /// `signature`, members sorted, no whitespace, strings escaped as Go's `encoding/json`
    /// does with HTML escaping off (what every LCP server signs).
    public var canonicalBytes: [UInt8] { Self.canonicalBytes(of: json) }

    /// The canonical form of any license JSON tree.
    public static func canonicalBytes(of json: JSONValue) -> [UInt8] {
        var object = json.object ?? JSONObject()
        object["signature"] = nil
        return JSONWriter(style: .canonical).bytes(.object(object))
    }
}

/// The link relations of License and Status Documents.
public enum LicenseRel {
    public static let hint = "hint"
    public static let publication = "publication"
    public static let `self` = "self"
    public static let support = "support"
    public static let status = "status"
    public static let license = "license"
    public static let register = "register"
    public static let renew = "renew"
    public static let `return` = "return"
}

import FoundationEssentials

/// The seam between Lectern and the library that implements an LCP encryption profile: the
/// three calls of Readium's `LCPClient` (`createContext`, `decrypt`,
/// `findOneValidPassphrase`). Lectern ships ``BasicProfileLCPClient`` for the open basic
/// (test) profile; a licensed implementation of the production profiles could be plugged in
/// here without touching the rest of the module.
public protocol LCPClient: Sendable {
    /// The encryption profiles this client can open; licenses with another profile are
    /// refused before anyone is asked for a passphrase.
    var supportedProfiles: Set<String> { get }

    /// Checks the integrity of a license with a user key and returns what decrypts it:
    /// signature, provider certificate (chain, validity at the license's date, revocation by
    /// `pemCrl` when given), key check, content key.
    ///
    /// - Parameters:
    ///   - jsonLicense: the license document, exactly as received.
    ///   - hashedPassphrase: the user key, 64 hexadecimal digits.
    ///   - pemCrl: the certificate revocation list of the provider's CA, PEM, if known.
    func createContext(jsonLicense: String, hashedPassphrase: String, pemCrl: String?) throws(LCPError) -> any LCPClientContext

    /// Decrypts an `IV‖ciphertext` blob with the content key and removes its padding; nil
    /// when the data is not a valid blob for this key.
    func decrypt(data: Data, using context: any LCPClientContext) -> Data?

    /// The first of `hashedPassphrases` (user keys, hexadecimal) that opens the license, by
    /// its key check only; nil when none does.
    func findOneValidPassphrase(jsonLicense: String, hashedPassphrases: [String]) -> String?

    /// Checks what can be checked without the user key — the signature and the provider
    /// certificate — so that a license is vetted before it is stored or replaces the one in the
    /// package, and before anyone is asked for a passphrase. A client that can only check with
    /// the key accepts here (the default); ``createContext(jsonLicense:hashedPassphrase:pemCrl:)``
    /// checks everything anyway.
    func checkSignature(jsonLicense: String) throws(LCPError)

    /// Decrypts whole CBC blocks (`IV‖blocks`, the IV being the ciphertext block before them)
    /// *without* removing any padding, for reading ranges of a resource. A client that cannot
    /// returns nil (the default), and resources are then decrypted whole.
    func decryptBlocks(data: Data, using context: any LCPClientContext) -> Data?

    /// A decryptor of whole CBC blocks chained from `iv` (the ciphertext block before the
    /// first), writing where the caller says: large reads of a resource are decrypted in
    /// chunks straight into their final buffer. Nil (the default): ranges go through
    /// ``decryptBlocks(data:using:)``.
    func blockDecryptor(iv: [UInt8], using context: any LCPClientContext) -> (any LCPBlockDecryptor)?
}

/// Decrypts consecutive CBC blocks of one resource, piece by piece.
public protocol LCPBlockDecryptor {
    /// Decrypts `input` (whole blocks) into `output` (as many bytes); false when it cannot.
    func decrypt(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawPointer) -> Bool
}

extension LCPClient {
    public var supportedProfiles: Set<String> { [LCPProfile.basic] }
    public func decryptBlocks(data: Data, using context: any LCPClientContext) -> Data? { nil }
    public func blockDecryptor(iv: [UInt8], using context: any LCPClientContext) -> (any LCPBlockDecryptor)? { nil }
    public func checkSignature(jsonLicense: String) throws(LCPError) {}
}

/// What ``LCPClient/createContext(jsonLicense:hashedPassphrase:pemCrl:)`` returns: the keys,
/// kept in memory only (never written anywhere), and what was learnt while checking.
public protocol LCPClientContext: Sendable {
    /// The `user` members listed in `user.encrypted`, decrypted, for display only.
    var userFields: [String: String] { get }
    /// How the provider certificate was trusted.
    var certificateTrust: LCPCertificateTrust { get }
}

extension LCPClientContext {
    public var userFields: [String: String] { [:] }
    public var certificateTrust: LCPCertificateTrust { .unknown }
}

/// How a license's provider certificate was accepted.
public enum LCPCertificateTrust: String, Sendable, Hashable {
    /// It chains to a trusted root.
    case chain
    /// It is the pinned legacy EDRLab test provider certificate, whose root was never
    /// published (see ``LCPTestCertificates/legacyTestProviderSHA256``).
    case legacyTestCertificate
    /// The client did not say.
    case unknown

    /// A line for the license information, when there is something to say.
    public var note: String? {
        switch self {
        case .legacyTestCertificate: "signed with the legacy LCP test certificate (its root is not published; accepted in basic-profile test mode)"
        case .chain, .unknown: nil
        }
    }
}

/// The encryption profiles and algorithm URIs of LCP.
public enum LCPProfile {
    /// The open test profile (LCP §6), the only one Lectern implements.
    public static let basic = "http://readium.org/lcp/basic-profile"

    /// Whether `profile` is one of the production profiles, whose user key transform is
    /// confidential (`profile-1.0`, `profile-2.x`).
    public static func isProduction(_ profile: String) -> Bool {
        profile.hasPrefix("http://readium.org/lcp/profile-")
    }
}

/// Algorithm URIs of the basic profile.
public enum LCPAlgorithm {
    public static let aes256CBC = "http://www.w3.org/2001/04/xmlenc#aes256-cbc"
    public static let sha256 = "http://www.w3.org/2001/04/xmlenc#sha256"
    public static let rsaSHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"
    public static let ecdsaSHA256 = "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256"
}

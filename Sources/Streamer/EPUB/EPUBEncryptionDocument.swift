import Shared

/// What `META-INF/encryption.xml` declares: one entry per `EncryptedData`, in document order,
/// with what protects it. The EPUB parser attaches the encryptions to the manifest links; the
/// content protections use the classification to recognise LCP, Adobe ADEPT or unknown DRMs.
public struct EPUBEncryptionDocument: Sendable, Hashable {
    /// What protects one resource.
    public enum Kind: String, Sendable, Hashable {
        /// IDPF or Adobe font obfuscation: not a DRM, undone by the EPUB parser.
        case fontObfuscation
        /// Readium LCP: the key is the license's content key.
        case lcp
        /// Adobe ADEPT: an `adept:resource` in the key info.
        case adobeADEPT
        /// Anything else: an algorithm or key source Lectern does not know.
        case unknown
    }

    /// One `EncryptedData` element.
    public struct Entry: Sendable, Hashable {
        /// The package path of the resource: the `CipherReference@URI`, percent-decoded and
        /// normalised, from the container root (not relative to the package document).
        public var path: String
        /// The `URI` as written.
        public var uri: String
        public var encryption: Encryption
        public var kind: Kind

        public init(path: String, uri: String, encryption: Encryption, kind: Kind) {
            self.path = path
            self.uri = uri
            self.encryption = encryption
            self.kind = kind
        }
    }

    /// Scheme URI given to LCP-encrypted resources (`Encryption.scheme`).
    public static let lcpScheme = "http://readium.org/2014/01/lcp"
    /// Scheme URI given to Adobe ADEPT-encrypted resources.
    public static let adobeADEPTScheme = "http://ns.adobe.com/adept"

    public var entries: [Entry]

    public init(entries: [Entry] = []) {
        self.entries = entries
    }

    /// The encryption of each resource, keyed by package path. When a path is listed twice the
    /// first entry wins.
    public var encryptions: [String: Encryption] {
        var result: [String: Encryption] = [:]
        for entry in entries where result[entry.path] == nil { result[entry.path] = entry.encryption }
        return result
    }

    /// Whether some resource is encrypted with Readium LCP.
    public var containsLCP: Bool { entries.contains { $0.kind == .lcp } }
    /// Whether some resource is encrypted with Adobe ADEPT.
    public var containsAdobeADEPT: Bool { entries.contains { $0.kind == .adobeADEPT } }
    /// The entries protected by something unknown.
    public var unknownEntries: [Entry] { entries.filter { $0.kind == .unknown } }
    /// Whether some resource is protected by more than font obfuscation, i.e. by a DRM.
    public var containsDRM: Bool { entries.contains { $0.kind != .fontObfuscation } }
}

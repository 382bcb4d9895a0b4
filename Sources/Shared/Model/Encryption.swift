/// How a resource is encrypted or obfuscated (`properties.encrypted` of a link; EPUB
/// `encryption.xml` entries are mapped to it).
public struct Encryption: Sendable, Hashable {
    /// URI of the algorithm, e.g. `http://www.w3.org/2001/04/xmlenc#aes256-cbc`.
    public var algorithm: String
    /// `deflate` when the resource was compressed before encryption.
    public var compression: String?
    /// Length of the resource before compression and encryption; a hint only.
    public var originalLength: Int?
    /// The DRM profile, e.g. `http://readium.org/lcp/basic-profile`.
    public var profile: String?
    /// The DRM scheme, e.g. `http://readium.org/2014/01/lcp`.
    public var scheme: String?

    public init(algorithm: String, compression: String? = nil, originalLength: Int? = nil,
                profile: String? = nil, scheme: String? = nil) {
        self.algorithm = algorithm
        self.compression = compression
        self.originalLength = originalLength
        self.profile = profile
        self.scheme = scheme
    }

    public init?(json: JSONValue?) {
        guard let object = json?.object, let algorithm = object["algorithm"]?.string else { return nil }
        self.algorithm = algorithm
        compression = object["compression"]?.string
        originalLength = object["originalLength"]?.int ?? object["original-length"]?.int
        profile = object["profile"]?.string
        scheme = object["scheme"]?.string
    }

    public var json: JSONValue {
        var object = JSONObject()
        object["algorithm"] = .string(algorithm)
        object.set("compression", compression.map(JSONValue.string))
        object.set("originalLength", originalLength.map(JSONValue.int))
        object.set("profile", profile.map(JSONValue.string))
        object.set("scheme", scheme.map(JSONValue.string))
        return .object(object)
    }

    /// The well-known algorithm URIs.
    public enum Algorithm {
        public static let aes256CBC = "http://www.w3.org/2001/04/xmlenc#aes256-cbc"
        public static let idpfFontObfuscation = "http://www.idpf.org/2008/embedding"
        public static let adobeFontObfuscation = "http://ns.adobe.com/pdf/enc#RC"
    }

    /// Whether this is font obfuscation, which is not a DRM.
    public var isFontObfuscation: Bool {
        algorithm == Algorithm.idpfFontObfuscation || algorithm == Algorithm.adobeFontObfuscation
    }
}

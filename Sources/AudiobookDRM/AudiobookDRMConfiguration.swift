import FoundationEssentials
import Shared

/// What the Feedbooks audiobook protection trusts and how it reaches the network.
public struct AudiobookDRMConfiguration: Sendable {
    /// The issuers whose signatures are accepted, each with the URL of its JSON Web Key Set.
    /// A signature from any other issuer fails: an issuer that publishes its own keys proves
    /// nothing, so the list of issuers is the trust anchor.
    public var trustedIssuers: [String: String]
    public var httpClient: any HTTPClient
    /// The clock of the rights period and of the key-set cache (tests pin it).
    public var now: @Sendable () -> Date
    /// Where key sets are cached; nil caches nothing.
    public var keySetCacheDirectory: String?
    /// Seconds allowed to download a key set.
    public var keySetTimeout: Double
    /// Seconds allowed to fetch the License Status Document; past it the check is skipped.
    public var licenseStatusTimeout: Double

    /// The issuers Lectern knows: Cantook Audio (De Marque), whose key set is published on its
    /// listening host, as the DPLA/Palace apps have it (audiobook-drm.md §4).
    public static let defaultTrustedIssuers: [String: String] = [
        "https://www.cantookaudio.com": "https://listen.cantookaudio.com/.well-known/jwks.json",
    ]

    /// `$XDG_CACHE_HOME/lectern/jwks`.
    public static var defaultKeySetCacheDirectory: String { XDGDirectories.cache + "/jwks" }

    public init(trustedIssuers: [String: String] = AudiobookDRMConfiguration.defaultTrustedIssuers,
                httpClient: any HTTPClient = CurlHTTPClient(),
                now: @escaping @Sendable () -> Date = { Date() },
                keySetCacheDirectory: String? = AudiobookDRMConfiguration.defaultKeySetCacheDirectory,
                keySetTimeout: Double = 10, licenseStatusTimeout: Double = 5) {
        self.trustedIssuers = [:]
        self.httpClient = httpClient
        self.now = now
        self.keySetCacheDirectory = keySetCacheDirectory
        self.keySetTimeout = keySetTimeout
        self.licenseStatusTimeout = licenseStatusTimeout
        for (issuer, url) in trustedIssuers { trust(issuer: issuer, keySetURL: url) }
    }

    /// Trusts `issuer`, whose keys are at `keySetURL`, by default `<issuer>/.well-known/jwks.json`.
    public mutating func trust(issuer: String, keySetURL: String? = nil) {
        let issuer = Self.normalized(issuer)
        trustedIssuers[issuer] = keySetURL ?? Self.defaultKeySetURL(issuer: issuer)
    }

    /// `<issuer>/.well-known/jwks.json`.
    public static func defaultKeySetURL(issuer: String) -> String {
        normalized(issuer) + "/.well-known/jwks.json"
    }

    /// The key-set URL of `issuer`, when it is trusted.
    public func keySetURL(issuer: String) -> String? {
        trustedIssuers[Self.normalized(issuer)]
    }

    /// Issuers compare without a trailing slash.
    static func normalized(_ issuer: String) -> String {
        var text = issuer.trimmed
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}

import LibCrypto

/// Which provider certificates a basic-profile client accepts.
public struct LCPTrustSettings: Sendable {
    /// How strictly the provider certificate is checked.
    public enum Policy: String, Sendable, Hashable {
        /// The certificate must chain to a trust anchor.
        case strict
        /// As strict, but the pinned legacy EDRLab test provider certificate is also accepted
        /// when the signature verifies and it was valid at the license's date (the default: the
        /// basic profile is a test profile and most test licenses in circulation use it).
        case basicProfileTestMode = "test"
    }

    public var policy: Policy
    /// The trusted roots: the embedded EDRLab test root (unless removed) and configured ones.
    public var anchors: [X509Certificate]

    /// - Parameters:
    ///   - additionalAnchorsPEM: PEM text of further roots to trust (configuration).
    ///   - includesEDRLabTestRoot: whether the embedded EDRLab test root is trusted.
    public init(policy: Policy = .basicProfileTestMode, additionalAnchorsPEM: [String] = [],
                includesEDRLabTestRoot: Bool = true) throws(CryptoError) {
        self.policy = policy
        var anchors: [X509Certificate] = []
        if includesEDRLabTestRoot { anchors += Self.edrlabTestRoot }
        for pem in additionalAnchorsPEM { anchors += try X509Certificate.certificates(pem: pem) }
        self.anchors = anchors
    }

    /// Trust settings with the embedded test root only.
    public static let `default` = LCPTrustSettings(policy: .basicProfileTestMode, anchors: edrlabTestRoot)

    public init(policy: Policy, anchors: [X509Certificate]) {
        self.policy = policy
        self.anchors = anchors
    }

    private static let edrlabTestRoot: [X509Certificate] = {
        // The constant is known to parse (a test checks it); an empty list would only make
        // every chain fail, never succeed.
        (try? X509Certificate.certificates(pem: LCPTestCertificates.edrlabTestRootPEM)) ?? []
    }()
}

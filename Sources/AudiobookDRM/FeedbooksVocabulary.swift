/// The names of the Feedbooks audiobook extensions to the Readium manifest (audiobook-drm.md §1),
/// used by Cantook Audio manifests distributed through DPLA, Palace and SimplyE.
public enum FeedbooksVocabulary {
    /// `metadata` member holding the validity period: `{"start": …, "end": …}`.
    public static let rightsKey = "http://www.feedbooks.com/audiobooks/rights"
    /// `metadata` member holding the signature: `{"algorithm", "issuer", "value"}`.
    public static let signatureKey = "http://www.feedbooks.com/audiobooks/signature"
    /// Non-standard JWK member holding the same key as `n`/`e`, as an SPKI PEM.
    public static let pemKeyMember = "http://www.feedbooks.com/audiobooks/signature/pem-key"
    /// `properties.encrypted.scheme` of tracks downloaded with a bearer token.
    public static let accessRestrictionScheme = "http://www.feedbooks.com/audiobooks/access-restriction"
    /// The only signature algorithm accepted: RSASSA-PKCS1-v1_5 with SHA-256.
    public static let rsaSHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"
    /// Media type of the Readium License Status Document a `license` link points to.
    public static let licenseStatusMediaType = "application/vnd.readium.license.status.v1.0+json"
    /// The identifier of the protection, for ``FeedbooksAudiobookProtectionService/scheme``.
    public static let scheme = "http://www.feedbooks.com/audiobooks"
}

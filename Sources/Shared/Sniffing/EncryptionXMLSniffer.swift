import LibXML

/// Finds which DRM an OCF `META-INF/encryption.xml` declares.
///
/// Only a key reference tells a DRM: LCP points its `ds:RetrievalMethod` at the content key of
/// `license.lcpl`, Adobe ADEPT puts an `adept:resource` in `ds:KeyInfo`. Font obfuscation
/// (IDPF or Adobe algorithm, no key info) is not a DRM, and neither is a plain AES algorithm
/// without a key reference.
struct EncryptionXMLSniffer {
    private(set) var isLCP = false
    private(set) var isAdept = false

    static let xmlSignatureNamespace = "http://www.w3.org/2000/09/xmldsig#"
    static let adeptNamespace = "http://ns.adobe.com/adept"
    static let lcpContentKeyURI = "license.lcpl#/encryption/content_key"
    static let lcpContentKeyType = "http://readium.org/2014/01/lcp#EncryptedContentKey"

    init(_ bytes: some Collection<UInt8>) {
        guard let document = try? XMLDocument(xml: bytes, recover: true) else { return }
        for keyInfo in document.root.descendants(named: "KeyInfo", namespace: Self.xmlSignatureNamespace) {
            for method in keyInfo.children(named: "RetrievalMethod", namespace: Self.xmlSignatureNamespace) {
                if method.attribute("URI") == Self.lcpContentKeyURI || method.attribute("Type") == Self.lcpContentKeyType {
                    isLCP = true
                }
            }
            if !keyInfo.children(named: "resource", namespace: Self.adeptNamespace).isEmpty {
                isAdept = true
            }
        }
    }
}

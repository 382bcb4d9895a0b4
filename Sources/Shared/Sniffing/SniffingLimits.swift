/// How much the ``FormatSniffer`` reads at most. Sniffing decides from the first bytes, the ZIP
/// directory and a few small entries; a file crafted to be large (a 5 MB `mimetype`, a
/// gigabyte of JSON) is never read whole.
public struct SniffingLimits: Sendable, Hashable {
    /// Bytes read from the start of a file to recognise its magic number, an HTML doctype,
    /// or the first character of a JSON or XML document.
    public var headLength: Int
    /// Largest JSON or XML document parsed to classify it (manifests, licenses, feeds,
    /// `encryption.xml`). A longer JSON document is not classified; an XML document is
    /// parsed from its first `maxDocumentLength` bytes.
    public var maxDocumentLength: Int
    /// Largest `mimetype` entry that can hold the EPUB marker (it is 20 bytes, plus some
    /// whitespace in sloppy packages).
    public var maxMimetypeLength: Int

    public init(headLength: Int = 4096, maxDocumentLength: Int = 4 << 20, maxMimetypeLength: Int = 1024) {
        self.headLength = headLength
        self.maxDocumentLength = maxDocumentLength
        self.maxMimetypeLength = maxMimetypeLength
    }

    public static let `default` = SniffingLimits()
}

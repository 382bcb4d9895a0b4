import FoundationEssentials
import LibZip

/// Determines the ``Format`` of a file from hints (extension, declared media type) and from
/// its content: magic numbers, JSON keys, XML root, ZIP entries.
///
/// Content beats hints: extensions lie (a `.epub` that is plain text, a `.unknown` that is an
/// EPUB), and only content shows that an EPUB is LCP- or ADEPT-protected. Hints decide only
/// what content cannot: the LCP extensions (`.lcpdf`, `.lcpa`) name a Readium package whose
/// manifest does not tell, a `.cbz`/`.zab` extension accepts stray files beside the pages or
/// tracks, and bytes of a ZIP archive say nothing about its entries.
///
/// Sniffing reads little (see ``SniffingLimits``): the first bytes, the ZIP central directory
/// and a few small entries (`mimetype`, `manifest.json`, `META-INF/encryption.xml`).
///
/// Rules, in order:
/// - bytes: ZIP magic → ZIP (refined by ``sniff(archive:hints:)``); `%PDF-` → PDF; JSON →
///   LCP license, OPDS authentication, W3C manifest, OPDS 2 feed, RWPM (audiobook, Divina,
///   webpub), OPDS 2 publication, plain JSON; `<!doctype html>` → HTML; XML root → OPDS 1
///   feed/entry, XHTML/HTML, XML.
/// - archives: EPUB (`mimetype`), Readium package (`manifest.json`), LPF (`index.html`,
///   `publication.json`), CBZ, ZAB, plain ZIP.
public struct FormatSniffer: Sendable {
    public var limits: SniffingLimits

    public init(limits: SniffingLimits = .default) {
        self.limits = limits
    }

    /// The format named by the hints alone (the "light" pass); nil when they name none.
    public func sniff(hints: FormatHints) -> Format? {
        hints.format
    }

    /// The format of a document held in memory (a download, a response body).
    ///
    /// For a ZIP archive only the magic number is visible here: the result is the ZIP-based
    /// format the hints name, else ``Format/Kind/zip``; open the archive and call
    /// ``sniff(archive:hints:)`` to look inside. A JSON document longer than
    /// ``SniffingLimits/maxDocumentLength`` is not classified; an XML document is classified
    /// from its first `maxDocumentLength` bytes.
    ///
    /// - Returns: nil when the content is of no format Lectern knows (plain text, binary
    ///   garbage, invalid JSON).
    public func sniff(bytes: some Collection<UInt8>, hints: FormatHints = FormatHints()) -> Format? {
        let head = bytes.prefix(limits.headLength)
        if let format = BinaryFormatSignature.format(of: head, hints: hints) { return format }
        switch ContentSignature(head: head) {
        case .zip:
            if let hinted = hints.format, hinted.isZIPPackage { return hinted }
            return Format(kind: .zip)
        case .pdf:
            return Format(kind: .pdf)
        case .json:
            guard bytes.count <= limits.maxDocumentLength, let json = LenientJSON.parse(bytes) else { return nil }
            return JSONFormatSniffer.format(of: json)
        case .markup:
            if ContentSignature.hasHTML5Doctype(head) { return Format(kind: .html) }
            if let format = XMLFormatSniffer.format(of: bytes.prefix(limits.maxDocumentLength)) { return format }
            return ContentSignature.looksLikeHTML(head) ? Format(kind: .html) : nil
        case .unknown:
            return nil
        }
    }

    /// The format of an open ZIP archive, from its entries. Never nil: an archive that is
    /// nothing else is a plain ZIP. Entries encrypted with a ZIP password are not read; their
    /// names still count.
    public func sniff(archive: ZipArchive, hints: FormatHints = FormatHints()) -> Format {
        ContainerFormatSniffer(limits: limits, hints: hints).format(of: ZipSniffedContainer(archive: archive))
            ?? Format(kind: .zip)
    }

    /// The format of a folder: an exploded EPUB (`mimetype` or `META-INF/container.xml`) or an
    /// exploded Readium package (`manifest.json`); nil for any other folder.
    public func sniff(folder path: String) -> Format? {
        ContainerFormatSniffer(limits: limits, hints: FormatHints())
            .format(of: DirectorySniffedContainer(path: path), isFolder: true)
    }
}

/// What a file is, as the sniffer found it: a publication format, a DRM inside it, or a
/// document Lectern can name but not read (OPDS feeds, plain JSON…).
public struct Format: Sendable, Hashable, CustomStringConvertible {
    /// The kinds of files Lectern recognises.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case epub
        /// Packaged Readium Web Publication (`.webpub`).
        case webpub
        /// Packaged Readium audiobook (`.audiobook`).
        case audiobook
        /// Packaged Divina visual narrative.
        case divina
        case pdf
        /// LCP-protected PDF package (`.lcpdf`).
        case lcpdf
        /// LCP-protected audiobook package (`.lcpa`, `.lcpau`).
        case lcpa
        /// Comic book archive.
        case cbz
        /// Zipped audio book (no manifest).
        case zab
        /// A bare LCP license document (`.lcpl`).
        case lcpl
        /// A Readium Web Publication Manifest on its own (resources remote or beside it).
        case webpubManifest = "webpub-manifest"
        case audiobookManifest = "audiobook-manifest"
        case divinaManifest = "divina-manifest"
        case w3cWPUBManifest = "w3c-wpub-manifest"
        /// W3C Lightweight Packaging Format.
        case lpf
        case opds1Feed = "opds1-feed"
        case opds1Entry = "opds1-entry"
        case opds2Feed = "opds2-feed"
        case opds2Publication = "opds2-publication"
        case opdsAuthentication = "opds-authentication"
        case html
        case xhtml
        case json
        case xml
        /// Comic book archives read through libarchive: RAR (`.cbr`), 7z (`.cb7`), tar (`.cbt`).
        case cbr
        case cb7
        case cbt
        /// Mobipocket (`.mobi`, `.prc`, `.azw`) and Kindle Format 8 (`.azw3`), read through libmobi.
        case mobi
        case azw3
        /// DjVu (`.djvu`, `.djv`), single-page or multi-page, read through djvulibre.
        case djvu
        /// A ZIP archive that is no publication.
        case zip
        /// Plain text (`.txt`), in any common encoding.
        case text
        /// Markdown (`.md`), CommonMark with GitHub's extensions.
        case markdown
        /// FictionBook 2 (`.fb2`).
        case fb2
        /// A ZIP archive holding one FictionBook 2 document (`.fb2.zip`).
        case fb2Zip = "fb2-zip"
        /// Word processor documents (`.docx`, `.odt`, `.rtf`), read when pandoc is installed.
        case docx
        case odt
        case rtf
    }

    public var kind: Kind
    public var mediaType: MediaType
    /// The package holds a Readium LCP license or LCP-encrypted resources.
    public var isLCPProtected: Bool
    /// The package holds Adobe ADEPT `rights.xml` or ADEPT-encrypted resources.
    public var isAdeptProtected: Bool

    public init(kind: Kind, mediaType: MediaType? = nil, isLCPProtected: Bool = false, isAdeptProtected: Bool = false) {
        self.kind = kind
        self.mediaType = mediaType ?? Format.defaultMediaType(kind)
        self.isLCPProtected = isLCPProtected
        self.isAdeptProtected = isAdeptProtected
    }

    /// The short name used on the command line and in JSON: `epub`, `lcpdf`, `cbz`…
    public var description: String { kind.rawValue }

    /// The name shown to people, one spelling everywhere: "EPUB", "PDF", "Audiobook"…
    public var displayName: String { Self.displayName(of: kind) }

    /// The display name of a format as stored or printed (`epub`, or already "EPUB").
    public static func displayName(_ name: String) -> String {
        Kind(rawValue: name).map(displayName(of:)) ?? name
    }

    static func displayName(of kind: Kind) -> String {
        switch kind {
        case .epub: "EPUB"
        case .webpub, .webpubManifest: "Web Publication"
        case .audiobook, .audiobookManifest, .zab, .lcpa: "Audiobook"
        case .divina, .divinaManifest: "Divina"
        case .pdf, .lcpdf: "PDF"
        case .cbz: "Comic"
        case .lcpl: "LCP license"
        case .w3cWPUBManifest: "W3C Web Publication"
        case .lpf: "LPF"
        case .opds1Feed, .opds1Entry, .opds2Feed, .opds2Publication: "OPDS"
        case .opdsAuthentication: "OPDS authentication"
        case .html: "HTML"
        case .xhtml: "XHTML"
        case .json: "JSON"
        case .xml: "XML"
        case .cbr, .cb7, .cbt: "Comic"
        case .mobi: "MOBI"
        case .azw3: "AZW3"
        case .djvu: "DjVu"
        case .zip: "ZIP"
        case .text: "Text"
        case .markdown: "Markdown"
        case .fb2, .fb2Zip: "FB2"
        case .docx: "DOCX"
        case .odt: "ODT"
        case .rtf: "RTF"
        }
    }

    /// Whether Lectern can open it as a publication.
    public var isPublication: Bool {
        switch kind {
        case .epub, .webpub, .audiobook, .divina, .pdf, .lcpdf, .lcpa, .cbz, .zab, .lcpl, .cbr, .cb7, .cbt, .mobi, .azw3, .djvu,
             .webpubManifest, .audiobookManifest, .divinaManifest, .text, .markdown, .fb2, .fb2Zip,
             .docx, .odt, .rtf:
            return true
        default:
            return false
        }
    }

    /// Whether a local file or folder of this format opens as a publication: a publication
    /// format, or an HTML document (a web page fetched by URL stays a page, not a book).
    public var isLocalPublication: Bool {
        isPublication || kind == .html || kind == .xhtml
    }

    /// Whether it is read through a ZIP archive.
    public var isZIPPackage: Bool {
        switch kind {
        case .epub, .webpub, .audiobook, .divina, .lcpdf, .lcpa, .cbz, .zab, .lpf, .zip, .fb2Zip: true
        default: false
        }
    }

    static func defaultMediaType(_ kind: Kind) -> MediaType {
        switch kind {
        case .epub: .epub
        case .webpub: .readiumWebPub
        case .audiobook: .readiumAudiobook
        case .divina: .divina
        case .pdf: .pdf
        case .lcpdf: .lcpProtectedPDF
        case .lcpa: .lcpProtectedAudiobook
        case .cbz: .cbz
        case .zab: .zab
        case .lcpl: .lcpLicenseDocument
        case .webpubManifest: .readiumWebPubManifest
        case .audiobookManifest: .readiumAudiobookManifest
        case .divinaManifest: .divinaManifest
        case .w3cWPUBManifest: .w3cWPUBManifest
        case .lpf: .lpf
        case .opds1Feed: .opds1
        case .opds1Entry: .opds1Entry
        case .opds2Feed: .opds2
        case .opds2Publication: .opds2Publication
        case .opdsAuthentication: .opdsAuthentication
        case .html: .html
        case .xhtml: .xhtml
        case .json: .json
        case .xml: .xml
        case .cbr: .cbr
        case .cb7: .cb7
        case .cbt: .cbt
        case .mobi: .mobi
        case .azw3: .azw3
        case .djvu: .djvu
        case .zip: .zip
        case .text: .text
        case .markdown: .markdown
        case .fb2: .fb2
        case .fb2Zip: .fb2Zip
        case .docx: .docx
        case .odt: .odt
        case .rtf: .rtf
        }
    }
}


/// What is known about a file before reading it: its file extension and the media type a
/// server or a catalog declared. Hints are cheap but may lie; the ``FormatSniffer`` uses them
/// only where the content cannot decide.
public struct FormatHints: Sendable, Hashable {
    /// File extensions, lower-cased, without the dot.
    public var fileExtensions: [String]
    /// Declared media types (an HTTP `Content-Type`, an OPDS link type).
    public var mediaTypes: [MediaType]

    public init(fileExtensions: [String] = [], mediaTypes: [MediaType] = []) {
        self.fileExtensions = fileExtensions.map { $0.lowercased() }
        self.mediaTypes = mediaTypes
    }

    /// Hints from one optional extension and one optional media type.
    public init(fileExtension: String?, mediaType: MediaType? = nil) {
        self.init(fileExtensions: fileExtension.map { [$0] } ?? [], mediaTypes: mediaType.map { [$0] } ?? [])
    }

    /// The extension of the last component of a path or URL (query and fragment ignored).
    public init(path: String, mediaType: MediaType? = nil) {
        self.init(fileExtension: FormatHints.fileExtension(of: path), mediaType: mediaType)
    }

    /// Whether the hints hold nothing.
    public var isEmpty: Bool { fileExtensions.isEmpty && mediaTypes.isEmpty }

    /// These hints and `other`'s, these first.
    public func merging(_ other: FormatHints) -> FormatHints {
        FormatHints(fileExtensions: fileExtensions + other.fileExtensions, mediaTypes: mediaTypes + other.mediaTypes)
    }

    /// Whether a hint names `kind`.
    func names(_ kind: Format.Kind) -> Bool {
        fileExtensions.contains { FormatHints.kind(ofExtension: $0) == kind }
            || mediaTypes.contains { FormatHints.kind(of: $0) == kind }
    }

    /// The format the hints name, the media type first (it is declared on purpose, an
    /// extension is often a habit).
    var format: Format? {
        for mediaType in mediaTypes {
            if let kind = FormatHints.kind(of: mediaType) { return FormatHints.format(kind) }
        }
        for fileExtension in fileExtensions {
            if let kind = FormatHints.kind(ofExtension: fileExtension) { return FormatHints.format(kind) }
        }
        return nil
    }

    /// Plain text or Markdown, when the hints name either: these have no magic number, the
    /// extension is all there is to know (a `.md` opening with `<div>` is still Markdown).
    var textFormat: Format? {
        [Format.Kind.text, .markdown].first(where: names).map { Format(kind: $0) }
    }

    /// LCP packages are LCP by definition; nothing else can be known from a name.
    static func format(_ kind: Format.Kind) -> Format {
        Format(kind: kind, isLCPProtected: kind == .lcpdf || kind == .lcpa)
    }

    /// The last path component's extension, lower-cased; nil when there is none.
    static func fileExtension(of path: String) -> String? {
        var name = Substring(path)
        if let cut = name.firstIndex(where: { $0 == "?" || $0 == "#" }), Href.isAbsoluteURL(path) {
            name = name[..<cut]
        }
        if let slash = name.lastIndex(of: "/") { name = name[name.index(after: slash)...] }
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...]
        return ext.isEmpty ? nil : ext.lowercased()
    }

    static func kind(ofExtension ext: String) -> Format.Kind? {
        switch ext.lowercased() {
        case "epub": .epub
        case "webpub": .webpub
        case "audiobook": .audiobook
        case "divina": .divina
        case "pdf": .pdf
        case "lcpdf": .lcpdf
        case "lcpa", "lcpau": .lcpa
        case "cbz": .cbz
        case "zab": .zab
        case "lcpl": .lcpl
        case "lpf": .lpf
        case "html", "htm": .html
        case "xhtml", "xht": .xhtml
        case "json": .json
        case "xml": .xml
        case "cbr", "rar": .cbr
        case "cb7", "7z": .cb7
        case "cbt", "tar": .cbt
        case "mobi", "prc", "azw": .mobi
        case "azw3": .azw3
        case "djvu", "djv": .djvu
        case "zip": .zip
        case "txt", "text": .text
        case "md", "markdown": .markdown
        case "fb2": .fb2
        case "docx": .docx
        case "odt": .odt
        case "rtf": .rtf
        default: nil
        }
    }

    static func kind(of mediaType: MediaType) -> Format.Kind? {
        switch mediaType.essence {
        case "application/epub+zip": return .epub
        case "application/webpub+zip": return .webpub
        case "application/audiobook+zip": return .audiobook
        case "application/divina+zip": return .divina
        case "application/pdf": return .pdf
        case "application/pdf+lcp": return .lcpdf
        case "application/audiobook+lcp": return .lcpa
        case "application/vnd.comicbook+zip", "application/x-cbz": return .cbz
        case "application/x.readium.zab+zip": return .zab
        case "application/vnd.readium.lcp.license.v1.0+json": return .lcpl
        case "application/webpub+json": return .webpubManifest
        case "application/audiobook+json": return .audiobookManifest
        case "application/divina+json": return .divinaManifest
        case "application/x.readium.w3c.wpub+json": return .w3cWPUBManifest
        case "application/lpf+zip": return .lpf
        case "application/atom+xml":
            guard mediaType.parameters["profile"] == "opds-catalog" else { return .xml }
            return mediaType.parameters["type"] == "entry" ? .opds1Entry : .opds1Feed
        case "application/opds+json": return .opds2Feed
        case "application/opds-publication+json": return .opds2Publication
        case "application/opds-authentication+json", "application/vnd.opds.authentication.v1.0+json":
            return .opdsAuthentication
        case "text/html": return .html
        case "application/xhtml+xml": return .xhtml
        case "application/json": return .json
        case "application/xml", "text/xml": return .xml
        case "application/vnd.comicbook-rar", "application/x-cbr": return .cbr
        case "application/x-cb7": return .cb7
        case "application/x-cbt": return .cbt
        case "application/x-mobipocket-ebook": return .mobi
        case "application/vnd.amazon.mobi8-ebook", "application/x-mobi8-ebook": return .azw3
        case "image/vnd.djvu", "image/x-djvu": return .djvu
        case "application/zip", "application/x-zip-compressed": return .zip
        case "text/plain": return .text
        case "text/markdown", "text/x-markdown": return .markdown
        case "application/x-fictionbook+xml", "application/x-fictionbook", "text/fb2+xml": return .fb2
        case "application/x-zip-compressed-fb2": return .fb2Zip
        case "application/vnd.openxmlformats-officedocument.wordprocessingml.document": return .docx
        case "application/vnd.oasis.opendocument.text": return .odt
        case "application/rtf", "text/rtf": return .rtf
        default: return nil
        }
    }
}

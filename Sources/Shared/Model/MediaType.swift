/// An IANA media type with its parameters, e.g. `text/html;charset=utf-8`.
///
/// Type, subtype and parameter names are lower-cased; the `charset` value is upper-cased and
/// common aliases are replaced by the IANA name (`utf8` → `UTF-8`, `latin1` → `ISO-8859-1`), so
/// that equal media types compare equal.
public struct MediaType: Sendable, Hashable, CustomStringConvertible {
    public let type: String
    public let subtype: String
    public let parameters: [String: String]

    /// Parses a media type; nil when it is not of the form `type/subtype[;name=value]*`.
    public init?(_ string: String) {
        // A package names the same few media types thousands of times: each is parsed once.
        if let known = MediaTypeParsingCache.shared.lookup(string) {
            guard let known else { return nil }
            self = known
            return
        }
        let parsed = MediaType(parsing: string)
        MediaTypeParsingCache.shared.store(parsed, for: string)
        guard let parsed else { return nil }
        self = parsed
    }

    private init?(parsing string: String) {
        var components = string.split(separator: ";", omittingEmptySubsequences: false)
            .map { $0.trimmed }
        guard !components.isEmpty else { return nil }
        let essence = components.removeFirst().lowercased()
        let parts = essence.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
              !parts[0].contains(" "), !parts[1].contains(" ") else { return nil }
        type = String(parts[0])
        subtype = String(parts[1])
        var parameters: [String: String] = [:]
        for component in components {
            guard let equals = component.firstIndex(of: "=") else { continue }
            let name = component[..<equals].trimmed.lowercased()
            var value = component[component.index(after: equals)...].trimmed
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            if name == "charset" { value = MediaType.normalizedCharset(value) }
            if !name.isEmpty { parameters[name] = value }
        }
        self.parameters = parameters
    }

    /// The IANA name of a charset, for the aliases found in real files.
    static func normalizedCharset(_ charset: String) -> String {
        let upper = charset.uppercased()
        switch upper {
        case "UTF8": return "UTF-8"
        case "UTF16": return "UTF-16"
        case "UTF16LE": return "UTF-16LE"
        case "UTF16BE": return "UTF-16BE"
        case "LATIN1", "LATIN-1", "L1", "ISO_8859-1", "ISO8859-1", "ISO-8859-1:1987", "ISO_8859-1:1987": return "ISO-8859-1"
        case "CP1252", "WINDOWS1252", "X-CP1252": return "WINDOWS-1252"
        case "ASCII", "US_ASCII", "ANSI_X3.4-1968": return "US-ASCII"
        default: return upper
        }
    }

    /// The media type as a string, parameters sorted by name.
    public var string: String {
        let params = parameters.keys.sorted().map { ";\($0)=\(parameters[$0]!)" }.joined()
        return "\(type)/\(subtype)\(params)"
    }

    public var description: String { string }

    /// `type/subtype`, without parameters.
    public var essence: String { "\(type)/\(subtype)" }

    /// The structured syntax suffix, e.g. `+zip` for `application/epub+zip`.
    public var structuredSyntaxSuffix: String? {
        guard let plus = subtype.lastIndex(of: "+") else { return nil }
        return String(subtype[plus...])
    }

    /// The `charset` parameter.
    public var charset: String? { parameters["charset"] }

    /// Whether `other` has the same type and subtype and this media type's parameters are all
    /// present in it (so `text/html` matches `text/html;charset=utf-8`, not the reverse).
    public func contains(_ other: MediaType?) -> Bool {
        guard let other, type == other.type || type == "*", subtype == other.subtype || subtype == "*" else { return false }
        return parameters.allSatisfy { other.parameters[$0.key] == $0.value }
    }

    /// Whether both media types have the same essence and compatible parameters.
    public func matches(_ other: MediaType?) -> Bool {
        contains(other) || (other?.contains(self) ?? false)
    }

    /// Whether the media type is a ZIP archive or a ZIP-based format.
    public var isZIP: Bool {
        matches(.zip) || structuredSyntaxSuffix == "+zip" || matches(.lcpProtectedPDF) || matches(.lcpProtectedAudiobook)
            || matches(.cbz)
    }

    /// Whether it is JSON or a JSON-based format.
    public var isJSON: Bool { matches(.json) || structuredSyntaxSuffix == "+json" }

    /// Whether it is (X)HTML.
    public var isHTML: Bool { matches(.html) || matches(.xhtml) }

    /// Whether it is a bitmap image.
    public var isBitmap: Bool { type == "image" && subtype != "svg+xml" && subtype != "vnd.djvu" }

    /// Whether it is audio.
    public var isAudio: Bool { type == "audio" }

    /// Whether it is video.
    public var isVideo: Bool { type == "video" }

    /// Whether it is a Readium Web Publication Manifest or one of its profiles.
    public var isRWPM: Bool {
        ([.readiumWebPubManifest, .readiumAudiobookManifest, .divinaManifest] as [MediaType]).contains { $0.matches(self) }
    }

    /// The usual file extension for this media type.
    public var fileExtension: String? {
        if let preferred = MediaType.preferredExtension[essence] { return preferred }
        return MediaType.extensions.filter { $0.value.essence == essence }.map(\.key).sorted().first
    }

    /// The media type usually given to files with this extension (case-insensitive).
    public static func of(fileExtension: String) -> MediaType? {
        extensions[fileExtension.lowercased()]
    }

    /// The media type usually given to the file at `path`, from the extension of its last
    /// component; nil when that name has no extension (`mimetype`, `css`, `.hidden`).
    public static func of(path: String) -> MediaType? {
        // Read as bytes: an archive asks this for each of its thousands of entries.
        let utf8 = path.utf8
        var end = utf8.endIndex
        while end > utf8.startIndex, utf8[utf8.index(before: end)] == UInt8(ascii: "/") { end = utf8.index(before: end) }
        let name = utf8[..<end]
        let nameStart = name.lastIndex(of: UInt8(ascii: "/")).map { utf8.index(after: $0) } ?? utf8.startIndex
        guard let dot = name[nameStart...].lastIndex(of: UInt8(ascii: ".")), dot != nameStart else { return nil }
        return of(fileExtension: String(path[utf8.index(after: dot)..<end]))
    }
}

extension MediaType {
    private static func known(_ string: String) -> MediaType { MediaType(string)! }

    public static let aac = known("audio/aac")
    public static let acsm = known("application/vnd.adobe.adept+xml")
    public static let aiff = known("audio/aiff")
    public static let avif = known("image/avif")
    public static let binary = known("application/octet-stream")
    public static let bmp = known("image/bmp")
    public static let cbz = known("application/vnd.comicbook+zip")
    public static let cbr = known("application/vnd.comicbook-rar")
    public static let cb7 = known("application/x-cb7")
    public static let cbt = known("application/x-cbt")
    public static let mobi = known("application/x-mobipocket-ebook")
    /// A DjVu document: pages to draw, not a picture an image decoder reads.
    public static let djvu = known("image/vnd.djvu")
    public static let azw3 = known("application/vnd.amazon.mobi8-ebook")
    public static let css = known("text/css")
    public static let divina = known("application/divina+zip")
    public static let divinaManifest = known("application/divina+json")
    public static let epub = known("application/epub+zip")
    public static let fb2 = known("application/x-fictionbook+xml")
    public static let fb2Zip = known("application/x-zip-compressed-fb2")
    public static let docx = known("application/vnd.openxmlformats-officedocument.wordprocessingml.document")
    public static let odt = known("application/vnd.oasis.opendocument.text")
    public static let rtf = known("application/rtf")
    public static let flac = known("audio/flac")
    public static let gif = known("image/gif")
    public static let gz = known("application/gzip")
    public static let html = known("text/html")
    public static let javascript = known("text/javascript")
    public static let jpeg = known("image/jpeg")
    public static let json = known("application/json")
    public static let jxl = known("image/jxl")
    public static let lcpLicenseDocument = known("application/vnd.readium.lcp.license.v1.0+json")
    public static let lcpProtectedAudiobook = known("application/audiobook+lcp")
    public static let lcpProtectedPDF = known("application/pdf+lcp")
    public static let lcpStatusDocument = known("application/vnd.readium.license.status.v1.0+json")
    public static let lpf = known("application/lpf+zip")
    public static let m4a = known("audio/mp4")
    public static let markdown = known("text/markdown")
    public static let mp3 = known("audio/mpeg")
    public static let mp4 = known("video/mp4")
    public static let ncx = known("application/x-dtbncx+xml")
    public static let ogg = known("audio/ogg")
    public static let ogv = known("video/ogg")
    public static let opds1 = known("application/atom+xml;profile=opds-catalog")
    public static let opds1Entry = known("application/atom+xml;type=entry;profile=opds-catalog")
    public static let opds2 = known("application/opds+json")
    public static let opds2Publication = known("application/opds-publication+json")
    public static let opdsAuthentication = known("application/opds-authentication+json")
    public static let opf = known("application/oebps-package+xml")
    public static let opus = known("audio/opus")
    public static let otf = known("font/otf")
    public static let pdf = known("application/pdf")
    public static let png = known("image/png")
    public static let readiumAudiobook = known("application/audiobook+zip")
    public static let readiumAudiobookManifest = known("application/audiobook+json")
    public static let readiumWebPub = known("application/webpub+zip")
    public static let readiumWebPubManifest = known("application/webpub+json")
    public static let smil = known("application/smil+xml")
    public static let svg = known("image/svg+xml")
    public static let text = known("text/plain")
    public static let tiff = known("image/tiff")
    public static let ttf = known("font/ttf")
    public static let w3cWPUBManifest = known("application/x.readium.w3c.wpub+json")
    public static let wav = known("audio/wav")
    public static let webmAudio = known("audio/webm")
    public static let webmVideo = known("video/webm")
    public static let webp = known("image/webp")
    public static let woff = known("font/woff")
    public static let woff2 = known("font/woff2")
    public static let xhtml = known("application/xhtml+xml")
    public static let xml = known("application/xml")
    public static let zab = known("application/x.readium.zab+zip")
    public static let zip = known("application/zip")

    /// File extensions and the media types they usually denote.
    static let extensions: [String: MediaType] = [
        "aac": .aac, "acsm": .acsm, "aif": .aiff, "aiff": .aiff, "avif": .avif,
        "audiobook": .readiumAudiobook, "bmp": .bmp, "dib": .bmp, "cbz": .cbz, "cbr": .cbr, "cb7": .cb7, "cbt": .cbt, "mobi": .mobi, "azw3": .azw3, "djvu": .djvu, "djv": .djvu, "css": .css,
        "divina": .divina, "docx": .docx, "odt": .odt, "rtf": .rtf, "epub": .epub, "fb2": .fb2, "flac": .flac, "gif": .gif, "htm": .html, "html": .html,
        "jpg": .jpeg, "jpeg": .jpeg, "jpe": .jpeg, "jif": .jpeg, "jfif": .jpeg, "jfi": .jpeg, "js": .javascript,
        "json": .json, "jxl": .jxl, "lcpl": .lcpLicenseDocument, "lcpa": .lcpProtectedAudiobook,
        "lcpau": .lcpProtectedAudiobook, "lcpdf": .lcpProtectedPDF, "lpf": .lpf, "m4a": .m4a, "m4b": .m4a,
        "md": .markdown, "markdown": .markdown,
        "mp3": .mp3, "mp4": .mp4, "ncx": .ncx, "oga": .ogg, "ogg": .ogg, "mogg": .ogg, "ogv": .ogv, "opf": .opf,
        "opus": .opus, "otf": .otf, "pdf": .pdf, "png": .png, "smil": .smil, "svg": .svg, "tif": .tiff,
        "tiff": .tiff, "ttf": .ttf, "txt": .text, "wav": .wav, "webm": .webmAudio, "webp": .webp,
        "webpub": .readiumWebPub, "woff": .woff, "woff2": .woff2, "xhtml": .xhtml, "xht": .xhtml,
        "xml": .xml, "zab": .zab, "zip": .zip,
    ]

    /// The extension to use when several map to one media type.
    static let preferredExtension: [String: String] = [
        "image/jpeg": "jpg", "text/html": "html", "audio/mp4": "m4a", "audio/ogg": "ogg",
        "image/tiff": "tiff", "application/xhtml+xml": "xhtml", "application/audiobook+lcp": "lcpa",
        "image/bmp": "bmp", "audio/aiff": "aiff",
    ]
}

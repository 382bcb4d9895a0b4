/// Helpers for the hrefs of a publication.
///
/// An href is a URL reference: either absolute (`https://…`, `urn:…`), or relative to the root
/// of the publication's package, without a leading slash and percent-encoded
/// (`EPUB/content%20001.xhtml#note-1`). Resolution follows RFC 3986, so a `..` can never climb
/// above the package root.
public enum Href {
    /// Whether `href` has a URL scheme (`http:`, `https:`, `urn:`, `data:` …).
    public static func isAbsoluteURL(_ href: String) -> Bool {
        scheme(of: href) != nil
    }

    /// Whether `href` is an `http:` or `https:` URL.
    public static func isHTTP(_ href: String) -> Bool {
        guard let scheme = scheme(of: href)?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    /// The scheme of an absolute URL, or nil.
    ///
    /// Read byte by byte up to the first byte a scheme cannot hold: a package path (`OEBPS/…`)
    /// is told apart at its first slash, which matters when a book has thousands of hrefs.
    public static func scheme(of href: String) -> String? {
        let utf8 = href.utf8
        var index = utf8.startIndex
        guard index < utf8.endIndex, isASCIILetter(utf8[index]) else { return nil }
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: ":") { return String(href[..<index]) }
            guard isASCIILetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") else { return nil }
            utf8.formIndex(after: &index)
        }
        return nil
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    /// The index of the first `byte` (an ASCII character) in `text`: a scan of its bytes, where
    /// `firstIndex(of:)` would form each grapheme cluster.
    private static func firstIndex(of byte: UInt8, in text: String) -> String.Index? {
        text.utf8.firstIndex(of: byte)
    }

    /// Resolves `href` against the href of the document that contains it (`base`), e.g.
    /// `../images/a.png` in `OEBPS/text/c1.xhtml` → `OEBPS/images/a.png`.
    public static func resolve(_ href: String, against base: String) -> String {
        let href = href.trimmed
        if isAbsoluteURL(href) { return href }
        if href.isEmpty { return removingFragment(base) }
        if href.hasPrefix("#") { return removingFragment(base) + href }
        // RFC 3986 §5.2.2: a reference that is only a query keeps the base path.
        if href.hasPrefix("?") { return removingQuery(removingFragment(base)) + href }
        let (root, basePath) = splitAuthority(removingQuery(removingFragment(base)))
        let (path, suffix) = splitSuffix(href)
        let merged: String
        if href.hasPrefix("//"), let scheme = scheme(of: base) {
            return "\(scheme):\(href)"
        } else if path.hasPrefix("/") {
            merged = path
        } else if let slash = basePath.lastIndex(of: "/") {
            merged = basePath[...slash] + path
        } else {
            merged = path
        }
        var resolved = removeDotSegments(merged)
        if root.isEmpty, resolved.hasPrefix("/") { resolved.removeFirst() }
        if !root.isEmpty, !resolved.hasPrefix("/") { resolved = "/" + resolved }
        return root + resolved + suffix
    }

    /// The package path that `href` designates: fragment and query removed, percent-decoded,
    /// dot segments resolved, no leading slash. Nil for absolute URLs.
    public static func path(of href: String) -> String? {
        if isAbsoluteURL(href) { return nil }
        if isPlainPath(href) { return href }
        let raw = removingQuery(removingFragment(href))
        let decoded = percentDecoded(raw) ?? raw
        var path = removeDotSegments(decoded.hasPrefix("/") ? decoded : "/" + decoded)
        while path.hasPrefix("/") { path.removeFirst() }
        return path
    }

    /// Whether `href` is already the package path it designates: no fragment, query, percent
    /// escape, leading slash or dot segment (most hrefs of a package are).
    static func isPlainPath(_ href: String) -> Bool {
        guard let first = href.utf8.first, first != UInt8(ascii: "/") else { return false }
        var segmentStart = true
        var dots = 0
        for byte in href.utf8 {
            switch byte {
            case UInt8(ascii: "#"), UInt8(ascii: "?"), UInt8(ascii: "%"):
                return false
            case UInt8(ascii: "/"):
                if segmentStart && (dots == 1 || dots == 2) { return false }
                segmentStart = true
                dots = 0
            case UInt8(ascii: "."):
                if segmentStart { dots += 1 }
            default:
                segmentStart = false
                dots = 0
            }
        }
        return !(segmentStart && (dots == 1 || dots == 2))
    }

    /// The fragment of `href` (after `#`), or nil.
    public static func fragment(of href: String) -> String? {
        guard let hash = firstIndex(of: UInt8(ascii: "#"), in: href) else { return nil }
        return String(href[href.utf8.index(after: hash)...])
    }

    /// `href` without its fragment.
    public static func removingFragment(_ href: String) -> String {
        guard let hash = firstIndex(of: UInt8(ascii: "#"), in: href) else { return href }
        return String(href[..<hash])
    }

    /// `href` without its query.
    static func removingQuery(_ href: String) -> String {
        guard let mark = firstIndex(of: UInt8(ascii: "?"), in: href) else { return href }
        return String(href[..<mark])
    }

    /// The href of a package path: each segment percent-encoded. `:` is encoded too, so that a
    /// first segment such as `C:fonts` is never read as a URL scheme (RFC 3986 §4.2).
    public static func fromPath(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            if isUnreservedPathByte(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    /// Percent-decodes `text`; nil when an escape is malformed or the bytes are not UTF-8.
    public static func percentDecoded(_ text: String) -> String? {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%") {
                guard index + 2 < utf8.count, let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2])
                else { return nil }
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The value of one hexadecimal digit (`UInt8(_:radix:)` would also accept a sign).
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func isUnreservedPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-._~/!$&'()*+,;=@".utf8.contains(byte)
        }
    }

    /// Splits `scheme://authority` from the path of an absolute URL; ("", href) otherwise.
    private static func splitAuthority(_ href: String) -> (String, String) {
        guard let scheme = scheme(of: href) else { return ("", href) }
        let rest = href.dropFirst(scheme.count + 1)
        guard rest.hasPrefix("//") else { return (scheme + ":", String(rest)) }
        let afterSlashes = rest.dropFirst(2)
        if let slash = afterSlashes.firstIndex(of: "/") {
            return (scheme + "://" + afterSlashes[..<slash], String(afterSlashes[slash...]))
        }
        return (scheme + "://" + afterSlashes, "/")
    }

    /// Splits a relative reference into its path and its `?query#fragment` suffix.
    private static func splitSuffix(_ href: String) -> (String, String) {
        guard let index = href.firstIndex(where: { $0 == "?" || $0 == "#" }) else { return (href, "") }
        return (String(href[..<index]), String(href[index...]))
    }

    /// RFC 3986 §5.2.4: `.` and `..` segments removed; `..` never climbs above the root.
    static func removeDotSegments(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (position, segment) in segments.enumerated() {
            let isLast = position == segments.count - 1
            switch segment {
            case ".":
                if isLast { output.append("") }
            case "..":
                if !output.isEmpty, !(output.count == 1 && output[0].isEmpty && absolute) { output.removeLast() }
                if isLast { output.append("") }
            default:
                output.append(segment)
            }
        }
        var result = output.joined(separator: "/")
        if absolute, !result.hasPrefix("/") { result = "/" + result }
        return result
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}

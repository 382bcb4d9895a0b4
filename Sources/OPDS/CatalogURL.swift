import Shared

/// Resolution of a catalog's hrefs against the URL of the document that holds them.
///
/// Only `http:`/`https:` (and `file:` when the feed itself was read from a file) survive: a
/// `javascript:`, `data:` or any other scheme in a hostile feed is dropped, never shown as a link.
struct CatalogURL {
    let base: String

    /// The absolute URL of `href`, or nil when it is empty or of a scheme a catalog may not use.
    func resolve(_ href: String?) -> String? {
        guard let href = CatalogText.clean(href) else { return nil }
        guard !href.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        let resolved = Href.resolve(href, against: base)
        guard let scheme = Href.scheme(of: resolved)?.lowercased() else { return nil }
        switch scheme {
        case "http", "https": return resolved
        case "file": return Href.scheme(of: base)?.lowercased() == "file" ? resolved : nil
        default: return nil
        }
    }
}

/// Text from a catalog made fit to show: control characters removed, whitespace runs collapsed.
enum CatalogText {
    static func sanitized(_ text: String) -> String {
        if isAlreadyClean(text) { return text }
        var result = ""
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let isSpace = scalar == " " || scalar == "\n" || scalar == "\t" || scalar == "\r"
            if isSpace { pendingSpace = !result.isEmpty; continue }
            // C0, DEL, C1 and bidi overrides/isolates: nothing a title needs, all a terminal fears.
            if value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
                || (0x2066...0x2069).contains(value) { continue }
            if pendingSpace { result.append(" "); pendingSpace = false }
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    /// Printable ASCII with single spaces between words, which ``sanitized(_:)`` would return
    /// unchanged: most of a large feed's text, which then is not copied scalar by scalar.
    static func isAlreadyClean(_ text: String) -> Bool {
        var previousWasSpace = true
        for byte in text.utf8 {
            guard byte >= 0x20, byte < 0x7F else { return false }
            let isSpace = byte == 0x20
            if isSpace, previousWasSpace { return false }
            previousWasSpace = isSpace
        }
        return !previousWasSpace || text.isEmpty
    }

    static func clean(_ text: String?) -> String? {
        guard let text else { return nil }
        let cleaned = sanitized(text)
        return cleaned.isEmpty ? nil : cleaned
    }
}

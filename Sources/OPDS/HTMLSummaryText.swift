/// The text of an HTML fragment: an Atom `<summary type="html">` or `<content type="html">`
/// holds escaped markup, which a terminal must show as words, not as `<p>The <b>1922</b>…`.
enum HTMLSummaryText {
    /// Tags dropped (a block tag leaves a space between its words), entities decoded; the result
    /// still goes through ``CatalogText`` like any other string of the feed.
    static func plain(_ html: String) -> String {
        var result = ""
        var index = html.startIndex
        while index < html.endIndex {
            let character = html[index]
            if character == "<", let close = html[index...].firstIndex(of: ">") {
                result += " "
                index = html.index(after: close)
            } else if character == "&", let (text, end) = entity(in: html, at: index) {
                result += text
                index = end
            } else {
                result.append(character)
                index = html.index(after: index)
            }
        }
        return result
    }

    private static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ",
        "mdash": "—", "ndash": "–", "hellip": "…", "laquo": "«", "raquo": "»",
        "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "copy": "©",
    ]

    /// The entity starting at `start` (`&amp;`, `&#233;`, `&#xE9;`) and where it ends; nil for
    /// an ampersand that starts none (kept as it is).
    private static func entity(in html: String, at start: String.Index) -> (String, String.Index)? {
        let rest = html[html.index(after: start)...].prefix(12)
        guard let semicolon = rest.firstIndex(of: ";") else { return nil }
        let name = String(rest[..<semicolon])
        let end = html.index(after: semicolon)
        if let text = named[name] { return (text, end) }
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
        guard let value, let scalar = Unicode.Scalar(value) else { return nil }
        return (String(Character(scalar)), end)
    }
}

import Shared

/// A Project Gutenberg file's frame: the header before `*** START OF THE PROJECT GUTENBERG
/// EBOOK … ***` (whose `Title:`, `Author:` and `Language:` lines name the book) and the
/// licence after `*** END OF …`, both left out of the book's text.
struct GutenbergText {
    var title: String?
    var authors: [String] = []
    var language: String?
    /// The lines of the book itself.
    var body: ArraySlice<Substring>

    /// Nil when `lines` have no Gutenberg start marker.
    init?(lines: [Substring]) {
        guard let start = lines.prefix(1000).firstIndex(where: { Self.isMarker($0, "START") }) else { return nil }
        let end = lines[(start + 1)...].firstIndex(where: { Self.isMarker($0, "END") }) ?? lines.endIndex
        body = lines[(start + 1)..<end]
        var field: String?
        for line in lines[..<start] {
            let trimmed = line.trimmed
            if let colon = trimmed.firstIndex(of: ":"), trimmed.distance(from: trimmed.startIndex, to: colon) < 20,
               line.first?.isWhitespace == false {
                let name = trimmed[..<colon].lowercased()
                let value = trimmed[trimmed.index(after: colon)...].trimmed
                field = name
                switch name {
                case "title": title = value
                case "author": authors = Self.people(value)
                case "language": language = Self.languageCode(value)
                default: break
                }
            } else if !trimmed.isEmpty, line.first?.isWhitespace == true, field == "title", let current = title {
                // A long title continues on indented lines.
                title = current + " " + trimmed
            } else {
                field = nil
            }
        }
    }

    private static func isMarker(_ line: Substring, _ word: String) -> Bool {
        guard line.hasPrefix("***") || line.hasPrefix("*END*") else { return false }
        let upper = line.uppercased()
        return upper.contains("PROJECT GUTENBERG") && (upper.contains("\(word) OF") || upper.contains("*\(word)*"))
    }

    /// "Jane Austen" / "Charles Dickens and Wilkie Collins".
    private static func people(_ value: String) -> [String] {
        value.replacing(" and ", with: ";").split(separator: ";").map { String($0).trimmed }.filter { !$0.isEmpty }
    }

    /// The BCP 47 code of the language names Gutenberg writes.
    static func languageCode(_ name: String) -> String? {
        let codes = [
            "english": "en", "french": "fr", "german": "de", "spanish": "es", "italian": "it", "portuguese": "pt",
            "dutch": "nl", "finnish": "fi", "swedish": "sv", "danish": "da", "norwegian": "no", "latin": "la",
            "russian": "ru", "polish": "pl", "greek": "el", "chinese": "zh", "japanese": "ja", "hungarian": "hu",
            "czech": "cs", "esperanto": "eo", "catalan": "ca", "tagalog": "tl", "hebrew": "he", "arabic": "ar",
        ]
        let first = name.split(whereSeparator: { $0 == "," || $0 == ";" }).first.map { String($0).trimmed.lowercased() } ?? ""
        return codes[first]
    }
}

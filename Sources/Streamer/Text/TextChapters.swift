import Shared

/// The structure of a plain-text book: paragraphs from blank lines, chapters from heading
/// lines (``ChapterHeading``).
struct TextChapters {
    /// One chapter: its heading (nil for the text before the first) and its paragraphs, each
    /// a list of lines.
    struct Chapter {
        var title: String?
        var rank: ChapterHeading.Rank
        var paragraphs: [[Substring]] = []
    }

    /// Chapters in order; the first may have no title (what comes before the first heading).
    private(set) var chapters: [Chapter] = []

    init(lines: some Collection<Substring>) {
        var current = Chapter(title: nil, rank: .chapter)
        var paragraph: [Substring] = []
        func endParagraph() {
            defer { paragraph = [] }
            guard !paragraph.isEmpty else { return }
            if paragraph.count <= 2, let rank = ChapterHeading.rank(of: paragraph[0]),
               paragraph.count == 1 || paragraph[1].trimmed.count <= ChapterHeading.maxLength {
                if current.title != nil || !current.paragraphs.isEmpty { chapters.append(current) }
                current = Chapter(title: paragraph.map(\.trimmed).joined(separator: " — "), rank: rank)
            } else {
                current.paragraphs.append(paragraph)
            }
        }
        for line in lines {
            if line.allSatisfy(\.isWhitespace) { endParagraph() } else { paragraph.append(line) }
        }
        endParagraph()
        if current.title != nil || !current.paragraphs.isEmpty || chapters.isEmpty { chapters.append(current) }
    }

    /// The lines of `text`, whatever their ends (`\n`, `\r\n`, `\r`, form feed).
    static func lines(of text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" || $0 == "\u{0C}" })
    }

    /// The XHTML body of one chapter: its heading, then paragraphs — lines joined into one
    /// flowing paragraph, except short lines (verse, addresses) which keep their breaks.
    static func xhtmlBody(of chapter: Chapter, id: String) -> String {
        var body = ""
        if let title = chapter.title {
            let tag = chapter.rank == .part ? "h1" : "h2"
            body += "<\(tag) id=\"\(id)\">\(XHTMLWriter.escape(title))</\(tag)>\n"
        }
        for paragraph in chapter.paragraphs {
            let isVerse = paragraph.count > 1 && paragraph.dropLast().allSatisfy { $0.trimmed.count < 48 }
            let lines = paragraph.map { XHTMLWriter.escape($0.trimmed) }
            body += "<p>" + lines.joined(separator: isVerse ? "<br/>" : " ") + "</p>\n"
        }
        return body
    }
}

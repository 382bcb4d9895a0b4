import FoundationEssentials

/// The Markdown export, for people: a section per publication, a subsection per chapter, each
/// quote as a block quote with the note below it and a line of colour, style, date and a
/// link-like locator.
enum MarkdownAnnotationWriter {
    static func markdown(_ publications: [AnnotatedPublication], generated: Date) -> String {
        var out = ""
        for (position, publication) in publications.enumerated() {
            if position > 0 { out += "\n---\n\n" }
            write(publication, generated: generated, into: &out)
        }
        return out
    }

    private static func write(_ publication: AnnotatedPublication, generated: Date, into out: inout String) {
        out += "# " + inline(publication.title.isEmpty ? "Untitled" : publication.title) + "\n\n"
        var facts: [String] = []
        if let byline = AnnotationOutline.byline(publication) { facts.append("by " + inline(byline)) }
        if let identifier = publication.identifier { facts.append(inline(identifier)) }
        let count = publication.annotations.filter { !$0.deleted }.count
        facts.append("\(count) annotation\(count == 1 ? "" : "s"), exported from Lectern on \(AnnotationOutline.day(generated))")
        out += facts.joined(separator: " · ") + "\n\n"
        if let note = AnnotationOutline.withheldNote(publication) { out += "> **Note:** " + note + "\n\n" }
        for chapter in AnnotationOutline.chapters(of: publication) {
            out += "## " + inline(chapter.title) + "\n\n"
            for annotation in chapter.annotations { write(annotation, into: &out) }
        }
    }

    private static func write(_ annotation: Annotation, into out: inout String) {
        let target = annotation.target
        if let quote = target.quote, !quote.exact.isEmpty {
            for line in AnnotationOutline.shown(quote.exact).split(separator: "\n", omittingEmptySubsequences: false) {
                out += line.isEmpty ? ">\n" : "> " + escaped(String(line)) + "\n"
            }
            out += "\n"
        } else if target.quoteWithheld || target.quoteIsSealed {
            out += "> *(quote withheld)*\n\n"
        }
        if let note = annotation.note, !note.isEmpty {
            out += AnnotationOutline.shown(note) + "\n\n"
        }
        var facts = ["\(annotation.color.rawValue) \(styleName(annotation.style))"]
        facts.append("[\(inline(AnnotationOutline.locatorText(target)))](<\(destination(AnnotationOutline.locatorLink(target)))>)")
        facts.append(AnnotationOutline.day(annotation.created))
        if !annotation.tags.isEmpty { facts.append(annotation.tags.map { "#" + inline($0) }.joined(separator: " ")) }
        out += "*" + facts.joined(separator: " · ") + "*\n\n"
    }

    private static func styleName(_ style: HighlightStyle) -> String {
        switch style {
        case .solid: "highlight"
        case .underline: "underline"
        case .strikethrough: "strike-through"
        }
    }

    /// Text of one line (a title, a heading, link text): line breaks become spaces.
    private static func inline(_ text: String) -> String {
        escaped(AnnotationOutline.shown(text).split(whereSeparator: \.isNewline).joined(separator: " "))
    }

    /// `line` with the characters Markdown would read as markup escaped, so that a quote reads
    /// as the book wrote it (an asterisk stays an asterisk, a `#` opens no heading).
    static func escaped(_ line: String) -> String {
        var out = ""
        out.reserveCapacity(line.utf8.count)
        var atStart = true
        for character in line {
            // Inline markup anywhere; a heading, list or rule only at the start of a line.
            if "\\`*_[]<>~|".contains(character) || (atStart && "#-+=".contains(character)) { out += "\\" }
            out.append(character)
            if !(atStart && character == " ") { atStart = false }
        }
        return out
    }

    /// A link destination inside `<…>`: the brackets and line breaks percent-encoded.
    private static func destination(_ link: String) -> String {
        var out = ""
        for character in link {
            switch character {
            case "<": out += "%3C"
            case ">": out += "%3E"
            case "\n", "\r": out += "%0A"
            default: out.append(character)
            }
        }
        return AnnotationOutline.shown(out)
    }
}

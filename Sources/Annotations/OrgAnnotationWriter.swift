import FoundationEssentials

/// The Org export: a top heading per publication, a heading per chapter, one per annotation
/// with its properties (id, colour, style, dates, location), the quote in a quote block and
/// the note below.
enum OrgAnnotationWriter {
    static func org(_ publications: [AnnotatedPublication], generated: Date) -> String {
        var out = "#+TITLE: " + (publications.count == 1 ? line(publications[0].title) : "Annotations") + "\n"
        out += "#+DATE: " + timestamp(generated, withTime: false) + "\n\n"
        for publication in publications { write(publication, into: &out) }
        return out
    }

    private static func write(_ publication: AnnotatedPublication, into out: inout String) {
        out += "* " + line(publication.title.isEmpty ? "Untitled" : publication.title) + "\n"
        var properties: [(String, String)] = []
        if let byline = AnnotationOutline.byline(publication) { properties.append(("AUTHOR", line(byline))) }
        if let identifier = publication.identifier { properties.append(("IDENTIFIER", line(identifier))) }
        if !properties.isEmpty { writeDrawer(properties, into: &out) }
        if let note = AnnotationOutline.withheldNote(publication) { out += note + "\n" }
        for chapter in AnnotationOutline.chapters(of: publication) {
            out += "** " + line(chapter.title) + "\n"
            for annotation in chapter.annotations { write(annotation, into: &out) }
        }
    }

    private static func write(_ annotation: Annotation, into out: inout String) {
        let target = annotation.target
        out += "*** " + headline(annotation) + (annotation.tags.isEmpty ? "" : "  :" + annotation.tags.map(tag).joined(separator: ":") + ":") + "\n"
        var properties = [("ID", annotation.id), ("COLOR", annotation.color.rawValue), ("STYLE", annotation.style.rawValue),
                          ("CREATED", timestamp(annotation.created, withTime: true))]
        if annotation.modified != annotation.created { properties.append(("MODIFIED", timestamp(annotation.modified, withTime: true))) }
        properties.append(("LOCATION", line(AnnotationOutline.locatorText(target))))
        properties.append(("LINK", line(AnnotationOutline.locatorLink(target))))
        writeDrawer(properties, into: &out)
        if let quote = target.quote, !quote.exact.isEmpty {
            out += "#+BEGIN_QUOTE\n" + body(quote.exact) + "#+END_QUOTE\n"
        } else if target.quoteWithheld || target.quoteIsSealed {
            out += "(quote withheld)\n"
        }
        if let note = annotation.note, !note.isEmpty { out += body(note) }
    }

    private static func headline(_ annotation: Annotation) -> String {
        let source = annotation.target.quote?.exact ?? annotation.note ?? ""
        let words = line(source)
        guard !words.isEmpty else { return annotation.target.page.map { "Page \($0)" } ?? "Note" }
        return words.count > 60 ? String(words.prefix(59)) + "…" : words
    }

    private static func writeDrawer(_ properties: [(String, String)], into out: inout String) {
        out += ":PROPERTIES:\n"
        for (name, value) in properties { out += ":\(name): \(value)\n" }
        out += ":END:\n"
    }

    /// Lines of a quote or note: a line Org would read as a heading, a keyword or the end of
    /// the block (`*…`, `#+…`) gets Org's escape, a leading comma.
    private static func body(_ text: String) -> String {
        var out = ""
        for line in AnnotationOutline.shown(text).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("*") || line.hasPrefix("#+") || line.hasPrefix(",*") || line.hasPrefix(",#+") { out += "," }
            out += line + "\n"
        }
        return out
    }

    /// One line of text: line breaks become spaces, controls shown.
    private static func line(_ text: String) -> String {
        AnnotationOutline.shown(text).split(whereSeparator: \.isNewline).joined(separator: " ").trimmed
    }

    /// An Org tag: letters, digits, `_`, `@`, `#` and `%` only.
    private static func tag(_ text: String) -> String {
        String(text.map { $0.isLetter || $0.isNumber || "_@#%".contains($0) ? $0 : "_" })
    }

    /// An inactive Org timestamp in UTC: `[2024-01-02 Tue]` or `[2024-01-02 Tue 10:11]`.
    static func timestamp(_ date: Date, withTime: Bool) -> String {
        let iso = AnnotationDates.iso8601(date)
        let days = Int64((date.timeIntervalSince1970 / 86_400).rounded(.down))
        let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][Int(((days % 7) + 7) % 7)]
        var stamp = "[" + iso.prefix(10) + " " + weekday
        if withTime { stamp += " " + iso.dropFirst(11).prefix(5) }
        return stamp + "]"
    }
}

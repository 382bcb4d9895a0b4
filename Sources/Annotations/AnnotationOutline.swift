import FoundationEssentials
import Shared

/// What the Markdown and Org exports share: the annotations of a publication grouped by
/// chapter, and the words that locate each one. Text of the book and of the person goes
/// through ``AnnotationOutline/shown(_:)``: these files are read on terminals (`cat`, `less`),
/// so a control character in a quote or a note is shown, never executed.
enum AnnotationOutline {
    struct Chapter {
        var title: String
        var annotations: [Annotation]
    }

    /// The live annotations (tombstones left out), grouped by their chapter's headings in the
    /// order chapters first appear, in text order within a chapter.
    static func chapters(of publication: AnnotatedPublication) -> [Chapter] {
        var chapters: [Chapter] = []
        var indexByKey: [[String]: Int] = [:]
        for annotation in publication.annotations where !annotation.deleted {
            let key = annotation.target.headings.isEmpty ? [annotation.target.href] : annotation.target.headings
            if let index = indexByKey[key] {
                chapters[index].annotations.append(annotation)
            } else {
                indexByKey[key] = chapters.count
                chapters.append(Chapter(title: chapterTitle(annotation.target), annotations: [annotation]))
            }
        }
        for index in chapters.indices {
            chapters[index].annotations = chapters[index].annotations.enumerated().sorted { first, second in
                let firstKey = orderKey(first.element.target), secondKey = orderKey(second.element.target)
                return firstKey != secondKey ? firstKey < secondKey : first.offset < second.offset
            }.map(\.element)
        }
        return chapters
    }

    private static func orderKey(_ target: AnnotationTarget) -> Double {
        if let range = target.textRange { return Double(range.lowerBound) }
        if let page = target.page { return Double(page) }
        return (target.progression ?? 0) * 1e12
    }

    private static func chapterTitle(_ target: AnnotationTarget) -> String {
        if !target.headings.isEmpty { return target.headings.joined(separator: " › ") }
        if target.href.isEmpty { return "Unplaced" }
        return target.href
    }

    /// The locator in words: the resource and where in it (`OEBPS/ch1.xhtml, 34 %`, `page 12`).
    static func locatorText(_ target: AnnotationTarget) -> String {
        var parts: [String] = []
        if !target.href.isEmpty { parts.append(target.href) }
        if let page = target.page {
            parts.append("page \(page)")
        } else if let progression = target.progression {
            parts.append("\(Int((progression * 100).rounded())) %")
        }
        return parts.isEmpty ? "unplaced" : parts.joined(separator: ", ")
    }

    /// The locator as a link destination: the resource with the most precise fragment there
    /// is (an EPUB CFI, a PDF page as RFC 8118 writes it).
    static func locatorLink(_ target: AnnotationTarget) -> String {
        var link = target.href
        if let cfi = target.cfi {
            link += "#" + (cfi.hasPrefix("epubcfi(") ? cfi : "epubcfi(\(cfi))")
        } else if let page = target.page {
            link += "#page=\(page)"
        }
        return link
    }

    /// `text` as it may stand in a file read on a terminal: its control characters shown in
    /// `cat -v` notation, its line feeds and tabs kept.
    static func shown(_ text: String) -> String {
        TerminalText.sanitized(text.replacing("\r\n", with: "\n"))
    }

    /// `2024-01-02` in UTC.
    static func day(_ date: Date) -> String {
        String(AnnotationDates.iso8601(date).prefix(10))
    }

    /// The quotes-withheld note of a publication, when an export left any out.
    static func withheldNote(_ publication: AnnotatedPublication) -> String? {
        let count = publication.quotesWithheld
        guard count > 0 else { return nil }
        return count == 1
            ? "The quote of 1 annotation was left out: the book's copy allowance did not cover it. Its place and note are kept."
            : "The quotes of \(count) annotations were left out: the book's copy allowance did not cover them. Their places and notes are kept."
    }

    /// The names of the authors, joined.
    static func byline(_ publication: AnnotatedPublication) -> String? {
        publication.authors.isEmpty ? nil : publication.authors.joined(separator: ", ")
    }
}

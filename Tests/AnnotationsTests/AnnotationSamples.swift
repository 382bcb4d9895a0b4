import Annotations
import FoundationEssentials

/// Publications with annotations of every kind, for the format tests.
enum AnnotationSamples {
    static let created = Date(timeIntervalSince1970: 1_700_000_000.125)
    static let modified = Date(timeIntervalSince1970: 1_700_086_400.5)

    /// One of each: a full highlight with a note, a tombstone, a sealed quote, a withheld
    /// quote, a PDF page note; texts with escape sequences, newlines and Markdown characters.
    static func publication() -> AnnotatedPublication {
        let full = Annotation(
            id: "0b7e4c1e-2f4a-4d8e-9c3b-5a6f7e8d9c0b",
            target: AnnotationTarget(href: "OEBPS/ch1.xhtml", type: "application/xhtml+xml", progression: 0.25, totalProgression: 0.125,
                                     textRange: 120..<151, quote: TextQuote(exact: "It was the *best* of times,\nit was", prefix: "Chapter 1\n",
                                                                            suffix: " the worst of times"),
                                     cssSelector: "#c1 > p:nth-child(2)", cfi: "epubcfi(/6/4!/4/2[c1]/4,/1:0,/1:31)",
                                     headings: ["Part One", "Chapter 1"], cssTextRange: 0..<31,
                                     xpointerStart: "/body/DocFragment[2]/body/p[1]/text().0", xpointerEnd: "/body/DocFragment[2]/body/p[1]/text().31"),
            color: .green, style: .underline, note: "Mine, with an escape \u{1B}[31mred\u{1B}[0m and\n# a heading", tags: ["theme", "dickens"],
            created: created, modified: modified)
        let tombstone = Annotation(id: "1c8f5d2f-3a5b-4e9f-8d4c-6b7a8f9e0d1c",
                                   target: AnnotationTarget(href: "OEBPS/ch1.xhtml", textRange: 10..<20, quote: TextQuote(exact: "gone")),
                                   color: .pink, created: created, deleted: true)
        let sealed = Annotation(id: "2d9a6e3a-4b6c-4fa0-9e5d-7c8b9a0f1e2d",
                                target: AnnotationTarget(href: "OEBPS/ch2.xhtml", progression: 0.5, textRange: 40..<52,
                                                         headings: ["Part One", "Chapter 2"], quoteIsSealed: true),
                                color: .blue, style: .strikethrough, created: created)
        let withheld = Annotation(id: "3eab7f4b-5c7d-40b1-8f6e-8d9cab1f2a3e",
                                  target: AnnotationTarget(href: "OEBPS/ch2.xhtml", progression: 0.75, textRange: 90..<99,
                                                           headings: ["Part One", "Chapter 2"], quoteWithheld: true),
                                  color: .orange, note: "My own words, always exported", created: created)
        let page = Annotation(id: "4fbc8a5c-6d8e-41c2-9a7f-9eadbc2a3b4f",
                              target: AnnotationTarget(href: "book.pdf", type: "application/pdf", page: 3, headings: ["Appendix"]),
                              color: .purple, note: "A page-level note", created: created)
        return AnnotatedPublication(identifier: "urn:isbn:9780141439600", title: "A Tale of Two Cities",
                                    authors: ["Charles Dickens"], annotations: [full, tombstone, sealed, withheld, page])
    }

    /// `count` small annotations in one publication.
    static func many(_ count: Int) -> AnnotatedPublication {
        var annotations: [Annotation] = []
        annotations.reserveCapacity(count)
        for index in 0..<count {
            annotations.append(Annotation(id: "id-\(index)", target: AnnotationTarget(href: "c\(index % 50).xhtml", textRange: index..<index + 5,
                                                                                    quote: TextQuote(exact: "q\(index)")),
                                          note: index % 3 == 0 ? "n\(index)" : nil, created: created))
        }
        return AnnotatedPublication(identifier: "urn:uuid:many", title: "Many", annotations: annotations)
    }

    /// The text of `data`, for the text formats.
    static func text(_ data: Data) -> String {
        String(decoding: data, as: UTF8.self)
    }
}

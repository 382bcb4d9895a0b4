import Annotations
import Bookshelf
import Foundation
import Testing
import TestSupport

/// The library's annotations: stored by the named step `library/7-annotations`, read back in
/// reading order, replaced by id, deleted as tombstones, their notes found by the library
/// search, and a protected book's quotes kept sealed.
@Suite struct AnnotationStoreTests {
    let folder = Fixtures.temporaryDirectory("annotation-store")
    var path: String { folder + "/library.sqlite" }

    func annotation(_ href: String, _ total: Double, quote: String, note: String? = nil, created: Double = 1_000) -> Annotation {
        Annotation(target: AnnotationTarget(href: href, type: "application/xhtml+xml", progression: 0.5, totalProgression: total,
                                            textRange: 10..<(10 + quote.count),
                                            quote: TextQuote(exact: quote, prefix: "before ", suffix: " after"),
                                            cssSelector: "#p3", cfi: "/4/2[c1]/6,/1:0,/1:12", page: 7, headings: ["Part I", "Chapter 1"],
                                            cssTextRange: 3..<9, xpointerStart: "/body/DocFragment[2]/body/p[3]/text().3",
                                            xpointerEnd: "/body/DocFragment[2]/body/p[3]/text().9"),
                   color: .green, style: .underline, note: note, tags: ["a", "b"],
                   created: Date(timeIntervalSince1970: created), modified: Date(timeIntervalSince1970: created + 5))
    }

    @Test func annotationsAreKeptWithEveryAnchorInReadingOrder() throws {
        let store = try LibraryStore(path: path)
        let book = try store.add(LibraryEntry(identity: "id:book#1", path: "/books/a.epub", title: "A"))
        let later = annotation("c2.xhtml", 0.7, quote: "second chapter", note: "*mine*", created: 1)
        let first = annotation("c1.xhtml", 0.2, quote: "first chapter", created: 50)
        try store.saveAnnotation(later, publicationID: book.id, sealing: nil)
        try store.saveAnnotation(first, publicationID: book.id, sealing: nil)
        let read = try LibraryStore(path: path).annotations(publicationID: book.id, sealing: nil)
        #expect(read == [first, later])

        var edited = later
        edited.note = "changed"
        edited.color = .purple
        try store.saveAnnotation(edited, publicationID: book.id, sealing: nil)
        #expect(try store.annotations(publicationID: book.id, sealing: nil) == [first, edited])

        try store.deleteAnnotation(id: first.id, publicationID: book.id)
        #expect(try store.annotations(publicationID: book.id, sealing: nil) == [edited])
        let tombstone = try #require(try store.annotations(publicationID: book.id, includingDeleted: true, sealing: nil).first)
        #expect(tombstone.id == first.id && tombstone.deleted)
        #expect(tombstone.target.quote == nil && tombstone.note == nil)
        #expect(tombstone.modified > first.modified)

        // They go with their publication.
        _ = try store.delete(id: book.id)
        #expect(try store.annotations(publicationID: book.id, includingDeleted: true, sealing: nil).isEmpty)
    }

    @Test func notesAreFoundByTheLibrarySearchRules() throws {
        let store = try LibraryStore(path: path)
        let book = try store.add(LibraryEntry(identity: "id:book#2", path: "/books/b.epub", title: "B"))
        let noted = annotation("c1.xhtml", 0.1, quote: "whale", note: "Ahab's obsession — the Éléphant NEAR: the sea")
        let other = annotation("c1.xhtml", 0.2, quote: "ship", note: "nothing to see")
        try store.saveAnnotation(noted, publicationID: book.id, sealing: nil)
        try store.saveAnnotation(other, publicationID: book.id, sealing: nil)
        let hits = try store.annotationNotes(matching: "elephant obsess*")
        #expect(hits.map(\.annotationID) == [noted.id])
        #expect(hits.first?.publication.id == book.id)
        #expect(hits.first?.snippet.contains { $0.isMatch } == true)
        // FTS5 syntax typed is searched as text, never interpreted.
        #expect(try store.annotationNotes(matching: "NEAR: sea").map(\.annotationID) == [noted.id])
        // A quote is not a note.
        #expect(try store.annotationNotes(matching: "whale").isEmpty)
        // Edited and deleted notes leave the index.
        var edited = noted
        edited.note = "a different thought"
        try store.saveAnnotation(edited, publicationID: book.id, sealing: nil)
        #expect(try store.annotationNotes(matching: "obsession").isEmpty)
        #expect(try store.annotationNotes(matching: "thought").map(\.annotationID) == [noted.id])
        try store.deleteAnnotation(id: noted.id, publicationID: book.id)
        #expect(try store.annotationNotes(matching: "thought").isEmpty)
    }

    @Test func aProtectedBooksQuoteIsSealedAndNeverDropped() throws {
        let store = try LibraryStore(path: path)
        let book = try store.add(LibraryEntry(identity: "id:book#3", path: "/books/c.epub", title: "C", protection: .lcp))
        let secret = "Call me Ishmael, said the sealed quotation"
        let highlight = annotation("c1.xhtml", 0.3, quote: secret, note: "my own words")
        // No key: refused rather than kept in clear.
        #expect(throws: LibraryError.self) { try store.saveAnnotation(highlight, publicationID: book.id, sealing: nil) }
        let sealing = QuoteSealing.lcp(userKey: Array(repeating: 7, count: 32))
        try store.saveAnnotation(highlight, publicationID: book.id, sealing: sealing)
        #expect(try store.annotations(publicationID: book.id, sealing: sealing) == [highlight])

        // Without the key (or with another), the annotation is there, its quote sealed.
        for other in [nil, QuoteSealing.lcp(userKey: Array(repeating: 8, count: 32)), QuoteSealing.password(PasswordSealing(keyPath: folder + "/k"))] {
            let locked = try #require(try store.annotations(publicationID: book.id, sealing: other).first)
            #expect(locked.target.quote == nil && locked.target.quoteIsSealed)
            // The note is the person's: never sealed.
            #expect(locked.note == "my own words" || locked.note == "edited without the key")
            // Saved back as read (a note edited without the key), the sealed quote stays.
            var edited = locked
            edited.note = "edited without the key"
            try store.saveAnnotation(edited, publicationID: book.id, sealing: other)
            #expect(try store.annotations(publicationID: book.id, sealing: sealing).first?.target.quote == highlight.target.quote)
        }

        let bytes = try Data(contentsOf: URL(fileURLWithPath: path)) + ((try? Data(contentsOf: URL(fileURLWithPath: path + "-wal"))) ?? Data())
        for needle in ["Ishmael", "sealed quotation"] {
            #expect(bytes.range(of: Data(needle.utf8)) == nil, "\(needle) in clear")
            #expect(bytes.range(of: needle.data(using: .utf16LittleEndian)!) == nil)
        }
    }

    @Test func aPasswordBooksQuoteIsSealedWithTheKeyFile() throws {
        let store = try LibraryStore(path: path)
        let book = try store.add(LibraryEntry(identity: "id:book#4", path: "/books/d.zip", title: "D", protection: .password))
        let sealing = QuoteSealing.password(PasswordSealing(keyPath: folder + "/passwords.key"))
        let highlight = annotation("c1.xhtml", 0.3, quote: "zipped words of the book")
        try store.saveAnnotation(highlight, publicationID: book.id, sealing: sealing)
        #expect(try store.annotations(publicationID: book.id, sealing: sealing) == [highlight])
        #expect(try store.annotations(publicationID: book.id, sealing: nil).first?.target.quoteIsSealed == true)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path)) + ((try? Data(contentsOf: URL(fileURLWithPath: path + "-wal"))) ?? Data())
        #expect(bytes.range(of: Data("zipped words".utf8)) == nil)
    }
}

import Annotations
import Bookshelf
import Foundation
@testable import ReaderUI
import Terminal
import Testing
import TestSupport

/// The library's highlights from the bookshelf (#31): `F` finds the notes of highlights too,
/// listed first and marked as notes; `A` lists every highlight of the library, Enter opens
/// the book there.
@MainActor @Suite struct HighlightLibraryTests {
    @Test func fFindsANotesWords() async throws {
        let folder = Fixtures.temporaryDirectory("highlight-note-search")
        let library = Library(store: try LibraryStore(path: folder + "/library.sqlite"))
        let reader = try InProcessApp("highlight-note-search-reader", library: library,
                                      annotations: libraryAnnotations(library.store))
        reader.app.startReader(path: HighlightInProcessTests.book, on: reader.canvas)
        try await reader.waitFor("April is the cruellest month", "p. 1/")
        reader.press(.character("/"))
        reader.type("cruellest")
        reader.press(.enter)
        try await reader.waitFor("“cruellest”", absent: ["Searching"])
        reader.press(.character("v"), .character("n"))
        try await reader.waitFor("Note —")
        reader.type("Chaucer's sweet showers")
        reader.press(.control("s"))
        try await reader.waitFor("Note saved.")
        let id = try #require(reader.app.currentBook?.entry?.id)
        try await StateWait.until("the note in the library") {
            try library.store.annotations(publicationID: id, sealing: nil).first?.note != nil
        }
        reader.press(.character("q"))

        let shelf = try InProcessApp("highlight-note-search-shelf", library: library,
                                     annotations: libraryAnnotations(library.store))
        shelf.app.startBookshelf(on: shelf.canvas)
        try await shelf.waitFor("The Waste Land")
        shelf.press(.character("F"))
        shelf.type("showers")
        shelf.press(.enter)
        let found = try await shelf.waitFor("Passages — showers", "note: ")
        #expect(found.contains("Chaucer"), "the note's words:\n\(found)")
        shelf.press(.enter)
        try await shelf.waitFor("April is the cruellest month", absent: ["Passages —"])
    }

    @Test func aOnTheShelfListsTheLibrarysHighlightsAndOpensOne() async throws {
        let folder = Fixtures.temporaryDirectory("highlight-library-list")
        let library = Library(store: try LibraryStore(path: folder + "/library.sqlite"))
        let reader = try InProcessApp("highlight-library-reader", library: library,
                                      annotations: libraryAnnotations(library.store))
        reader.app.startReader(path: HighlightInProcessTests.book, on: reader.canvas)
        try await reader.waitFor("April is the cruellest month", "p. 1/")
        reader.press(.character("/"))
        reader.type("burnished throne")
        reader.press(.enter)
        try await reader.waitFor("“burnished throne”", absent: ["Searching"])
        reader.press(.character("H"))
        try await reader.waitFor("Highlight —")
        reader.press(.escape, .escape)
        let id = try #require(reader.app.currentBook?.entry?.id)
        try await StateWait.until("the highlight in the library") {
            try !library.store.annotations(publicationID: id, sealing: nil).isEmpty
        }
        // Back to the start: the book reopens there unless the list says otherwise.
        reader.press(.character("g"))
        try await reader.waitFor("April is the cruellest month")
        reader.press(.character("q"))

        let shelf = try InProcessApp("highlight-library-shelf", library: library,
                                     annotations: libraryAnnotations(library.store))
        shelf.app.startBookshelf(on: shelf.canvas)
        try await shelf.waitFor("The Waste Land")
        shelf.press(.character("A"))
        try await shelf.waitFor("Annotations (1/1)", "The Waste Land, ", "“burnished throne”")
        shelf.press(.enter)
        try await shelf.waitFor("The Chair she sat in, like a burnished throne", absent: ["Annotations ("])
    }
}

/// Hostile annotations (an import from elsewhere): escape sequences in a note and a quote are
/// shown as visible characters, never sent to the terminal; a range outside the chapter is
/// drawn nowhere and breaks nothing.
@MainActor @Suite struct HighlightHostileTests {
    @Test func escapesInNotesAndQuotesAreShownSafely() async throws {
        let first = try HighlightUI("highlight-hostile", columns: 80, colorCount: 256)
        first.app.startReader(path: HighlightInProcessTests.book, on: first.canvas)
        try await first.waitFor("April is the cruellest month", "p. 1/")
        let href = try #require(first.app.currentBook.map { $0.source.href(0) })
        try await StateWait.until("the book's library entry") { first.app.currentBook?.entry?.id != nil }
        let publicationID = try #require(first.app.currentBook?.entry?.id)
        first.press(.character("q"))
        let hostile = Annotation(target: AnnotationTarget(href: href, textRange: 5_000_000..<5_000_010,
                                                          quote: TextQuote(exact: "quote\u{1B}[2J\u{1B}]52;c;aGk=\u{07}"),
                                                          headings: ["\u{1B}[31mred"]),
                                 note: "note\u{1B}[1;1H\u{9B}6n\nsecond")
        await first.store.save(hostile, publicationID)

        let ui = try HighlightUI("highlight-hostile-again", columns: 80, colorCount: 256, library: first.library, store: first.store)
        ui.app.startReader(path: HighlightInProcessTests.book, on: ui.canvas)
        try await ui.waitFor("April is the cruellest month", "p. 1/")
        try await ui.waitUntil("the annotation read") { _ in ui.app.currentBook?.highlights.isLoaded == true }
        ui.press(.character("A"))
        let list = try await ui.waitFor("Annotations (1/1)", "quote")
        ui.press(.tab)
        let popup = try await ui.waitFor("Highlight —", "second")
        for screen in [list, popup] {
            #expect(!screen.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) },
                    "no control character reaches the screen:\n\(screen)")
        }
    }
}

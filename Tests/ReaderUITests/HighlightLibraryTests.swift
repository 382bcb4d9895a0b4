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
        for _ in 0..<500 where try library.store.annotations(publicationID: id, sealing: nil).first?.note == nil {
            try await Task.sleep(nanoseconds: 10_000_000)
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
        for _ in 0..<500 where try library.store.annotations(publicationID: id, sealing: nil).isEmpty {
            try await Task.sleep(nanoseconds: 10_000_000)
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

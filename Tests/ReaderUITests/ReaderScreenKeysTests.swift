import Foundation
@testable import ReaderUI
import Terminal
import Testing
import TestSupport

/// The reader's page as a screen (#30): its keys become effects that the application carries
/// out (``ReaderScreen``, ``ReaderEffect``), read without the application first, then the
/// whole interface in-process on a ``MemoryCanvas``.
@MainActor @Suite struct ReaderScreenKeysTests {
    static let book = Fixtures.sample("epub/idpf-wasteland.epub")

    /// What `key` asks on the page of `book`, as the application would be handed it.
    static func effects(_ key: Key, book: BookController) -> [String] {
        ReaderScreen(book: book, keyMap: KeyMap()).handle(key, size: (rows: 24, columns: 80)).map(describe)
    }

    static func describe(_ effect: ScreenEffect) -> String {
        switch effect {
        case .reader(.move(let action, let count, let recordsJump)):
            "move \(action.rawValue)" + (count.map { " ×\($0)" } ?? "") + (recordsJump ? " noting the place" : "")
        case .reader(.back): "back"
        case .reader: "another reader effect"
        case .push(let layer): "push \(type(of: layer))"
        case .message(let text): "message \(text)"
        default: "another effect"
        }
    }

    /// Space turns a page, `q` closes the book, `?` pushes the help, a count goes with the
    /// movement typed after it, and Escape on the bare page asks nothing (it never leaves the
    /// book); none of these keys changes the page by itself.
    @Test func keysBecomeEffects() async throws {
        let ui = try InProcessApp("reader-screen-effects", withLibrary: false)
        ui.app.startReader(path: Self.book, on: ui.canvas)
        try await ui.waitFor("April is the cruellest month", "p. 1/")
        let book = try #require(ui.app.currentBook)
        let top = book.state.top

        #expect(Self.effects(.character(" "), book: book) == ["move page_down"])
        #expect(Self.effects(.character("q"), book: book) == ["back"])
        #expect(Self.effects(.control("c"), book: book) == ["back"])
        #expect(Self.effects(.character("?"), book: book) == ["push HelpScreen"])
        #expect(Self.effects(.character("t"), book: book) == ["push ContentsScreen"])
        #expect(Self.effects(.character("3"), book: book).isEmpty, "a digit is a count being typed")
        #expect(Self.effects(.character("j"), book: book) == ["move line_down ×3"])
        #expect(Self.effects(.character("g"), book: book) == ["move start noting the place"])
        #expect(Self.effects(.escape, book: book).isEmpty)
        #expect(book.state.top == top, "handling keys moved the page: only carrying out the effects does")
        #expect(ui.app.overlays.isEmpty, "handling keys pushed a layer: only carrying out the effects does")
    }

    /// The same keys through the application: Space turns the page, Escape takes off exactly
    /// one layer over the reader (and on the bare page leaves the book open), `q` goes back to
    /// the bookshelf.
    @Test func spaceTurnsEscapePopsOneLayerQGoesBackToTheShelf() async throws {
        let ui = try InProcessApp("reader-screen-app")
        ui.app.startBookshelf(on: ui.canvas)
        try await ui.waitUntil("the bookshelf shown") { !$0.isEmpty }
        ui.app.openPublication(path: Self.book, entry: nil)
        try await ui.waitFor("April is the cruellest month", "p. 1/")
        ui.press(.character(" "))
        try await ui.waitFor("p. 2/", absent: ["April is the cruellest month"])

        ui.press(.character("?"))
        try await ui.waitFor("Keys — esc closes")
        #expect(ui.app.overlays.count == 1)
        ui.press(.escape)
        try await ui.waitFor("p. 2/", absent: ["Keys — esc closes"])
        #expect(ui.app.overlays.isEmpty)
        #expect(ui.app.currentBook != nil, "one Escape took off the help and the book")
        ui.press(.escape)
        #expect(ui.app.currentBook != nil, "Escape on the page closed the book")

        ui.press(.character("q"))
        try await ui.waitUntil("the bookshelf again") { _ in if case .shelf = ui.app.page { true } else { false } }
        #expect(ui.app.currentBook == nil)
        #expect(!ui.app.isQuitting)
    }
}

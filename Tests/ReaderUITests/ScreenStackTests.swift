import Foundation
@testable import ReaderUI
import Terminal
import Testing
import TestSupport

/// Popups that are ``Screen``s on the focus stack (#30), in-process on a ``MemoryCanvas``:
/// each is one layer, Escape takes off exactly that one, and drawing leaves the stack as it was.
@MainActor @Suite struct ScreenStackTests {
    @Test func helpContentsAndSearchResultsAreOneLayerEach() async throws {
        let ui = try InProcessApp("screen-stack", withLibrary: false)
        ui.app.startReader(path: Fixtures.sample("epub/idpf-wasteland.epub"), on: ui.canvas)
        try await ui.waitFor("April is the cruellest month", "p. 1/")
        #expect(ui.app.overlays.isEmpty)

        ui.press(.character("?"))
        try await ui.waitFor("Keys — esc closes")
        #expect(ui.app.overlays.count == 1)
        ui.press(.escape)
        try await ui.waitFor("April is the cruellest month", absent: ["Keys — esc closes", "┌"])
        #expect(ui.app.overlays.isEmpty)

        ui.press(.character("t"))
        try await ui.waitFor("II. A GAME OF CHESS", "┌")
        let drawn = ui.canvas.text
        // Drawing again changes nothing: the same layer, the same picture.
        for _ in 0..<3 { ui.app.redraw() }
        #expect(ui.app.overlays.count == 1)
        #expect(ui.canvas.text == drawn)
        ui.press(.escape)
        try await ui.waitFor("April is the cruellest month", absent: ["┌"])
        #expect(ui.app.overlays.isEmpty)

        ui.press(.character("/"))
        ui.type("Thames")
        ui.press(.enter)
        try await ui.waitUntil("a match of the search shown") { $0.contains("Thames") && !$0.contains("April is the cruellest month") }
        ui.press(.character("S"))
        try await ui.waitFor("“Thames” — ", "esc close")
        #expect(ui.app.overlays.count == 1)
        ui.press(.escape)
        let page = try await ui.waitFor("Thames", absent: ["esc close", "┌"])
        #expect(ui.app.overlays.isEmpty)
        #expect(!ui.app.isQuitting, "one Escape closed the list only:\n\(page)")
    }

    /// The passphrase dialog is a layer above the page (it was a field of its own, checked
    /// before the stack): it takes the keys, drawing leaves it as it is, and one Escape takes
    /// it off, leaving the publication restricted.
    @Test func thePassphraseDialogIsALayerAboveThePage() async throws {
        let ui = try InProcessApp("screen-stack-passphrase", withLibrary: false)
        ui.app.startReader(path: Fixtures.sample("protected-zip/derived-wasteland-pkzip-secret.epub"), on: ui.canvas)
        let dialog = try await ui.waitFor("Password", "esc cancel")
        #expect(ui.app.overlays.count == 1)
        #expect(ui.app.overlays.last is PassphraseScreen)
        for _ in 0..<3 { ui.app.redraw() }
        #expect(ui.app.overlays.count == 1)
        #expect(ui.canvas.text == dialog)
        ui.type("abc")
        #expect(ui.app.overlays.count == 1, "typing stays in the dialog")
        ui.press(.escape)
        let restricted = try await ui.waitFor("Cannot show this publication", absent: ["esc cancel"])
        #expect(ui.app.overlays.isEmpty)
        #expect(!ui.app.isQuitting, "one Escape closed the dialog only:\n\(restricted)")
    }

    /// The reader's prompt and the popups of a highlight are one layer each: the note editor
    /// takes the place of the highlight it was opened from, a highlight opened from the list
    /// goes over the list, and each Escape takes off one.
    @Test func thePromptAndTheHighlightPopupsAreOneLayerEach() async throws {
        let ui = try HighlightUI("screen-stack-highlights", columns: 80, colorCount: 256)
        ui.app.startReader(path: Fixtures.sample("epub/idpf-wasteland.epub"), on: ui.canvas)
        try await ui.waitFor("April is the cruellest month", "p. 1/")
        ui.press(.character("/"))
        #expect(ui.app.overlays.count == 1)
        #expect(ui.app.overlays.last is PromptScreen)
        ui.press(.escape)
        #expect(ui.app.overlays.isEmpty)

        try await ui.search("cruellest")
        ui.press(.character("H"))
        try await ui.waitFor("Highlight —", "1 yellow")
        #expect(ui.app.overlays.count == 1)
        ui.press(.character("n"))
        let editor = try await ui.waitFor("Note — ", absent: ["Highlight —"])
        #expect(ui.app.overlays.count == 1, "the editor took the highlight's place")
        for _ in 0..<3 { ui.app.redraw() }
        #expect(ui.canvas.text == editor)
        #expect(ui.app.overlays.count == 1)
        ui.press(.escape)
        try await ui.waitFor("Note not changed.")
        #expect(ui.app.overlays.isEmpty)

        ui.press(.character("A"))
        try await ui.waitFor("cruellest", "┌")
        #expect(ui.app.overlays.count == 1)
        ui.press(.tab)
        try await ui.waitFor("Highlight —")
        #expect(ui.app.overlays.count == 2, "the highlight over the list")
        ui.press(.escape)
        try await ui.waitFor("┌", absent: ["Highlight —"])
        #expect(ui.app.overlays.count == 1, "one Escape: back to the list")
        ui.press(.escape)
        try await ui.waitFor("April is the cruellest month", absent: ["┌"])
        #expect(ui.app.overlays.isEmpty)
        #expect(!ui.app.isQuitting)
    }

    /// Drawing leaves the bookshelf's state as it is: the rows of its list follow the window
    /// when the resize is handled, not when the page is drawn (render set them before).
    @Test func drawingTheShelfChangesNothingAResizeFitsItsRows() async throws {
        let ui = try InProcessApp("screen-stack-shelf")
        ui.app.startBookshelf(on: ui.canvas)
        try await ui.waitUntil("the bookshelf shown") { !$0.isEmpty }
        let before = ui.app.shelf.list
        #expect(before.visibleRows == ShelfView.listRows(windowRows: 24))
        ui.canvas.resize(rows: 12, columns: 80)
        for _ in 0..<3 { ui.app.redraw() }
        #expect(ui.app.shelf.list == before, "drawing changed the shelf's list")
        ui.press(.resize)
        #expect(ui.app.shelf.list.visibleRows == ShelfView.listRows(windowRows: 12))
    }

    /// A layer that shows the page as it is (a mode such as reading aloud) answers its own keys
    /// and lets the others through: paging turns the page under it, and it stays until Escape.
    @Test func aLayerOverThePageLetsPagingKeysThrough() async throws {
        let ui = try InProcessApp("screen-stack-through", withLibrary: false)
        ui.app.startReader(path: Fixtures.sample("epub/idpf-wasteland.epub"), on: ui.canvas)
        try await ui.waitFor("April is the cruellest month", "p. 1/")
        ui.app.overlays.append(ModeOverThePage())
        #expect(!ui.app.pageIsCovered)
        ui.press(.character(" "))
        try await ui.waitFor("p. 2/", absent: ["April is the cruellest month"])
        #expect(ui.app.overlays.count == 1, "the mode stays over the page turned")
        ui.press(.character("x"))
        try await ui.waitFor("the mode's own key")
        #expect(ui.app.overlays.count == 1)
        ui.press(.escape)
        #expect(ui.app.overlays.isEmpty)
        #expect(!ui.app.isQuitting, "one Escape ended the mode only")
    }
}

/// A mode over the page for the test: `x` is its key, Escape ends it, every other key goes
/// through to the page.
@MainActor private struct ModeOverThePage: Screen {
    mutating func handle(_ key: Key, size: (rows: Int, columns: Int)) -> [ScreenEffect] {
        if key == .escape { return [.pop] }
        if key == .character("x") { return [.message("the mode's own key")] }
        return [.passThrough]
    }

    func draw(into painter: Painter) {}

    var coversPage: Bool { false }
}

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
}

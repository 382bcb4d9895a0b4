import Bookshelf
import Foundation
@testable import ReaderUI
import Terminal
import Testing
import TestSupport

/// The page modes (the bookshelf, the catalogs, the reader) as screens (#30), in-process on a
/// ``MemoryCanvas``: Escape takes off exactly one layer over a mode, and leaving a mode finds
/// the one under it as it was left.
@MainActor @Suite struct PageModeStackTests {
    /// The catalogs' screen: its help popup is one layer (one Escape closes it and the view
    /// stays), Escape on the list of catalogs goes back to the bookshelf.
    @Test func escapeInTheCatalogsTakesOffOneLayer() async throws {
        let saved = [SavedCatalog(name: "Standard Ebooks", url: "https://example.invalid/opds")]
        let services = CatalogServices(saved: { .success(saved) },
                                       connect: { _ in fatalError("the test fetches no feed") },
                                       borrow: { _, _, _, _, _ in .failure(OpenFailure(message: "not in this test")) })
        let ui = try InProcessApp("page-modes-catalogs", catalogs: services)
        ui.app.startBookshelf(on: ui.canvas)
        try await ui.waitUntil("the bookshelf shown") { !$0.isEmpty }
        ui.press(.character("c"))
        try await ui.waitFor("Catalogs", "Standard Ebooks")
        guard case .catalogs = ui.app.page else { Issue.record("c did not show the catalogs"); return }

        ui.press(.character("?"))
        try await ui.waitFor("Keys — esc closes")
        #expect(ui.app.overlays.count == 1)
        ui.press(.escape)
        try await ui.waitFor("Standard Ebooks", absent: ["Keys — esc closes"])
        #expect(ui.app.overlays.isEmpty)
        guard case .catalogs = ui.app.page else { Issue.record("one Escape left the catalogs"); return }

        ui.press(.escape)
        try await ui.waitUntil("the bookshelf again") { !$0.contains("Standard Ebooks") }
        guard case .shelf = ui.app.page else { Issue.record("Escape did not go back to the bookshelf"); return }
        #expect(!ui.app.isQuitting)
    }

    /// The bookshelf's screen: the help popup over it is one layer, one Escape closes it and
    /// the shelf stays (Escape on the shelf itself quits nothing either).
    @Test func escapeOverTheShelfTakesOffOneLayer() async throws {
        let ui = try InProcessApp("page-modes-shelf-help")
        ui.app.startBookshelf(on: ui.canvas)
        try await ui.waitUntil("the bookshelf shown") { !$0.isEmpty }
        ui.press(.character("?"))
        try await ui.waitFor("Keys — esc closes")
        #expect(ui.app.overlays.count == 1)
        ui.press(.escape)
        try await ui.waitUntil("the help closed") { !$0.contains("Keys — esc closes") }
        #expect(ui.app.overlays.isEmpty)
        guard case .shelf = ui.app.page else { Issue.record("one Escape left the bookshelf"); return }
        ui.press(.escape)
        #expect(ui.app.overlays.isEmpty)
        #expect(!ui.app.isQuitting, "Escape on the shelf ended the program")
    }

    /// Bookshelf → reader → bookshelf: the book opens over the shelf, `q` closes it, and the
    /// shelf shows the selection it had.
    @Test func shelfToReaderToShelfKeepsTheSelection() async throws {
        let folder = Fixtures.temporaryDirectory("page-modes-shelf")
        let library = Library(store: try LibraryStore(path: folder + "/library.sqlite"))
        let outcomes = await LibraryImporter(library: library, open: InProcessApp.open)
            .importPaths([Fixtures.sample("epub/idpf-wasteland.epub"), Fixtures.sample("epub/idpf-childrens-literature.epub")])
        #expect(outcomes.allSatisfy { $0.entry != nil }, "\(outcomes.map(\.error))")
        let ui = try InProcessApp("page-modes-shelf-ui", library: library)
        ui.app.startBookshelf(on: ui.canvas)
        try await ui.waitUntil("both books on the shelf") { _ in ui.app.shelf.visible.count == 2 }
        let second = try #require(ui.app.shelf.entries[safe: ui.app.shelf.visible[1]])
        ui.press(.character("j"))
        #expect(ui.app.shelf.selectedEntry?.id == second.id)

        ui.press(.enter)
        try await StateWait.until("the second book open") { ui.app.currentBook != nil }
        try await ui.waitFor("p. 1/")
        #expect(ui.app.overlays.isEmpty)

        ui.press(.character("q"))
        try await ui.waitUntil("the bookshelf again") { _ in if case .shelf = ui.app.page { true } else { false } }
        #expect(ui.app.currentBook == nil)
        #expect(ui.app.shelf.selectedEntry?.id == second.id, "the shelf lost its selection")
        #expect(!ui.app.isQuitting)
    }
}

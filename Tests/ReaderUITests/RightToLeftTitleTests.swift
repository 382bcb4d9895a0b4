import Bookshelf
import Foundation
@testable import ReaderUI
import Terminal
import Testing
import TestSupport
import TextLayout

/// Right-to-left titles in the interface (#29 item 10): the shelf row, the status line and
/// the contents popup show them in visual order, as the page text is, not backwards.
@MainActor @Suite struct RightToLeftTitleTests {
    @Test func theShelfRowShowsAHebrewTitleInVisualOrder() async throws {
        let ui = try InProcessApp("rtl-shelf")
        let library = try #require(ui.library)
        _ = try await library.add(LibraryEntry(identity: "urn:test:rtl", path: "/nonexistent/shalom.epub", title: "שלום עולם",
                                         author: "אורי עידן", format: "EPUB"))
        ui.app.startBookshelf(on: ui.canvas)
        let shelf = try await ui.waitFor("םלוע םולש")
        #expect(shelf.contains("ןדיע ירוא"), "the author in visual order too:\n\(shelf)")
        #expect(!shelf.contains("שלום עולם"), "the title in logical order, which a terminal shows backwards")
    }

    @Test func theStatusLineAndTheContentsShowAHebrewChapterTitleInVisualOrder() async throws {
        let path = Fixtures.temporaryDirectory("rtl-status") + "/sailing.epub"
        try TestEPUBs.write(title: "שייט בישראל", language: "he", body: "<p dir=\"rtl\">הספר הזה עוסק בשייט.</p>",
                            chapterTitle: "פרק ראשון: הים", to: path)
        let ui = try InProcessApp("rtl-status", withLibrary: false)
        ui.app.startReader(path: path, on: ui.canvas)
        let page = try await ui.waitFor("p. 1/")
        let status = try #require(page.split(separator: "\n").last.map(String.init))
        #expect(status.contains("םיה :ןושאר קרפ"), "the chapter's title on the status line in visual order: \(status)")
        ui.press(.character("t"))
        let contents = try await ui.waitFor("┌", "םיה :ןושאר קרפ")
        #expect(!contents.contains("פרק ראשון"), "a contents row in logical order:\n\(contents)")
    }
}

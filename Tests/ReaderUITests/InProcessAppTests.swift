import Foundation
@testable import ReaderUI
import Terminal
import Testing
import TestSupport

/// The whole interface in-process (#30): opening, the contents popup, popups stacked and
/// Escape popping exactly one, a password asked through the dialog — on a ``MemoryCanvas``,
/// no terminal.
@MainActor @Suite struct InProcessAppTests {
    @Test func theContentsPopupJumpsToAChapter() async throws {
        let ui = try InProcessApp("inprocess-contents", withLibrary: false)
        ui.app.startReader(path: Fixtures.sample("epub/idpf-wasteland.epub"), on: ui.canvas)
        try await ui.waitFor("April is the cruellest month")
        ui.press(.character("t"))
        let contents = try await ui.waitFor("II. A GAME OF CHESS")
        #expect(contents.contains("┌"), "the contents are a popup:\n\(contents)")
        // Down to the second part, then Enter: the popup closes on that part's first page.
        try await selectRow(containing: "II. A GAME OF CHESS", in: ui)
        ui.press(.enter)
        let page = try await ui.waitFor("The Chair she sat in, like a burnished throne", absent: ["┌"])
        #expect(!page.contains("April is the cruellest month"))
    }

    /// Bookmarks list, then naming one on top of it: Escape closes the name prompt only, a
    /// second Escape the list, and the page stays.
    @Test func escapePopsExactlyOneLayer() async throws {
        let ui = try InProcessApp("inprocess-stack")
        ui.app.startReader(path: Fixtures.sample("epub/idpf-wasteland.epub"), on: ui.canvas)
        try await ui.waitFor("April is the cruellest month", "p. 1/")
        ui.press(.character("m"))
        try await ui.waitFor("Bookmark added")
        ui.press(.character("'"))
        try await ui.waitFor("Bookmarks")
        ui.press(.character("r"))
        try await ui.waitFor("Name: ")
        ui.press(.escape)
        let list = try await ui.waitFor("Bookmarks", absent: ["Name: "])
        #expect(list.contains("┌"))
        ui.press(.escape)
        let page = try await ui.waitFor("April is the cruellest month", absent: ["┌"])
        #expect(!page.contains("Bookmarks"))
        ui.press(.escape)
        // Escape on the page itself closes nothing more (q closes the book).
        #expect(!ui.app.isQuitting)
    }

    /// A password-protected EPUB (ZIP encryption): the dialog asks, a wrong password is
    /// refused in the dialog itself, the right one opens the book.
    @Test func aWrongThenRightPasswordInTheDialog() async throws {
        let ui = try InProcessApp("inprocess-password", withLibrary: false)
        ui.app.startReader(path: Fixtures.sample("protected-zip/derived-wasteland-pkzip-secret.epub"), on: ui.canvas)
        let dialog = try await ui.waitFor("Password")
        #expect(ui.canvas.cursor != nil, "the cursor is in the password field:\n\(dialog)")
        ui.type("wrong")
        #expect(!ui.canvas.text.contains("wrong"), "a password is never shown")
        ui.press(.enter)
        let refused = try await ui.waitUntil("the wrong password refused") { screen in
            screen.contains("Password") && screen.contains("incorrect password")
        }
        #expect(!refused.contains("April is the cruellest month"))
        ui.type(Self.password)
        ui.press(.enter)
        try await ui.waitFor("April is the cruellest month", absent: ["Password"])
    }

    static let password = "secret"

    /// Moves the contents popup's selection down to the row containing `title`.
    private func selectRow(containing title: String, in ui: InProcessApp) async throws {
        for _ in 0..<40 {
            // The selected row is drawn reversed (the canvas has no colours).
            let rows = ui.canvas.text.split(separator: "\n", omittingEmptySubsequences: false)
            if let row = rows.firstIndex(where: { $0.contains(title) }),
               let column = rows[row].range(of: title).map({ rows[row].distance(from: rows[row].startIndex, to: $0.lowerBound) }),
               let style = ui.canvas.style(row: row, column: column), style.attributes.contains(.reverse) {
                return
            }
            ui.press(.character("j"))
        }
        Issue.record("the contents popup never selected \(title)")
    }
}

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

    /// In a PDF whose outline names only pages, a contents entry lands on its heading, not on
    /// the top of its page ("Bar", the page's "2 Bar", is the second section of page 2) (#29 item 12).
    @Test func aPDFContentsEntryLandsOnItsHeading() async throws {
        let ui = try InProcessApp("inprocess-pdf-contents", withLibrary: false)
        ui.app.startReader(path: Fixtures.sample("pdf/pypdf-pdflatex-outline.pdf"), on: ui.canvas)
        try await ui.waitFor("Contents", "1 Foo … 2")
        ui.press(.character("t"))
        try await ui.waitFor("┌")
        // The outline says "Bar" where the page says "2 Bar": the section number is the page's.
        try await selectRow(containing: "Bar", framed: true, in: ui)
        ui.press(.enter)
        let page = try await ui.waitUntil("the page of 2 Bar") { $0.contains("2 Bar") && $0.contains("Hello, here is") && !$0.contains("┌") }
        let rows = page.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(rows.first { !$0.isEmpty } == "2 Bar", "the heading is the first line shown:\n\(page)")
        #expect(!page.contains("1 Foo"), "\(page)")
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
    /// `framed`: the row inside the popup's frame ("│ title"), when the page shows the title too.
    private func selectRow(containing title: String, framed: Bool = false, in ui: InProcessApp) async throws {
        let pattern = framed ? "│ " + title : title, skip = framed ? 2 : 0
        for _ in 0..<40 {
            // The selected row is drawn reversed (the canvas has no colours).
            let rows = ui.canvas.text.split(separator: "\n", omittingEmptySubsequences: false)
            if let row = rows.firstIndex(where: { $0.contains(pattern) }),
               let column = rows[row].range(of: pattern).map({ rows[row].distance(from: rows[row].startIndex, to: $0.lowerBound) + skip }),
               let style = ui.canvas.style(row: row, column: column), style.attributes.contains(.reverse) {
                return
            }
            ui.press(.character("j"))
        }
        Issue.record("the contents popup never selected \(title)")
    }
}

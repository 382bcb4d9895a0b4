import Foundation
import Testing
import TestSupport

/// Printed pages (#29 item 8): `:25` goes to printed page 25 of a book with a page list, the
/// status line shows the printed page, and the contents popup offers the page list and the
/// landmarks; a PDF's page labels are used the same way.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct PrintedPagesUITests {
    static func status(_ screen: String) -> String { ContentsSectionsUITests.status(screen) }

    @Test func colonGoesToThePrintedPageShownOnTheStatusLine() throws {
        let path = Fixtures.temporaryDirectory("pages") + "/pages.epub"
        try PageListEPUB.write(to: path)
        let tmux = try TmuxSession(width: 100, height: 30, arguments: ["open", path], home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitUntil("page 1 on the status line") { Self.status($0).contains("page 1 ") }
        try tmux.press(":")
        try tmux.type("25")
        try tmux.press("Enter")
        try tmux.waitUntil("printed page 25 at the top") { screen in
            screen.split(separator: "\n").first?.contains("Printed page 25 begins here.") == true
                && Self.status(screen).contains("page 25 ")
        }
        try tmux.press(":")
        try tmux.type("99")
        try tmux.press("Enter")
        try tmux.waitFor("No page 99 in this book (its pages run 1–40).")
    }

    @Test func thePopupOffersThePageListAndTheLandmarks() throws {
        let path = Fixtures.temporaryDirectory("pages") + "/pages.epub"
        try PageListEPUB.write(to: path)
        let tmux = try TmuxSession(width: 100, height: 30, arguments: ["open", path], home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitUntil("page 1 on the status line") { Self.status($0).contains("page 1 ") }
        try tmux.press("t")
        try tmux.waitFor("Contents — p pages · L landmarks")
        try tmux.press("p")
        try tmux.waitFor("Pages — c contents · L landmarks")
        try tmux.press("j", "j", "Enter")
        try tmux.waitUntil("printed page 3") { Self.status($0).contains("page 3 ") }
        try tmux.press("t")
        try tmux.waitFor("Contents — p pages")
        try tmux.press("L")
        try tmux.waitForAll("Landmarks — c contents · p pages", "Table of Contents", "Second Part")
        try tmux.press("j", "Enter")
        try tmux.waitUntil("the second part") { screen in
            Self.status(screen).contains("page 21 ") && screen.split(separator: "\n").first?.contains("Chapter 2") == true
        }
    }

    @Test func aPDFsLabelsAreGoneToAndListed() throws {
        let path = Fixtures.temporaryDirectory("pages") + "/labels.pdf"
        try LabelledPDF.write(to: path)
        let tmux = try TmuxSession(width: 100, height: 30, arguments: ["open", path], home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitUntil("the first page") { $0.contains("Page i (1 of 4)") && $0.contains("Leaf 1") }
        try tmux.press(":")
        try tmux.type("1")
        try tmux.press("Enter")
        try tmux.waitUntil("printed page 1, the third leaf") { $0.contains("Page 1 (3 of 4)") && $0.contains("Leaf 3") }
        try tmux.press("t")
        try tmux.waitFor("p pages")
        try tmux.press("p")
        try tmux.waitFor("Pages — c contents")
        try tmux.press("k", "Enter")
        try tmux.waitUntil("page ii, the second leaf") { $0.contains("Page ii (2 of 4)") && $0.contains("Leaf 2") }
    }
}

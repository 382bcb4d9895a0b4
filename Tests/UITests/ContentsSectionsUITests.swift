import Foundation
import Testing
import TestSupport

/// A chapter is a contents entry, not a file (#29 item 7): in The Waste Land (one file, six
/// sections) `]` goes section by section, and a search match is named by its section; in a
/// PDF a place is a page.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct ContentsSectionsUITests {
    /// The status line (the last row).
    static func status(_ screen: String) -> String {
        String(screen.split(separator: "\n", omittingEmptySubsequences: false).last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? "")
    }

    @Test func bracketsMoveBySectionsOfOneFile() throws {
        let tmux = try TmuxSession(width: 100, height: 30, arguments: ["open", UIFixtures.sample("idpf-wasteland.epub")],
                                   home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitUntil("the first section on the status line") { Self.status($0).contains("I. THE BURIAL OF THE DEAD") }
        try tmux.press("]")
        try tmux.waitUntil("the second section") { screen in
            Self.status(screen).contains("II. A GAME OF CHESS") && screen.contains("The Chair she sat in")
        }
        try tmux.press("]")
        try tmux.waitUntil("the third section") { Self.status($0).contains("III. THE FIRE SERMON") }
        // Inside a section [ goes to its start, and from there to the section before.
        try tmux.press("Space")
        try tmux.press("[")
        try tmux.waitUntil("the third section's heading") { screen in
            screen.contains("III. THE FIRE SERMON") && screen.contains("The river's tent is broken")
                && Self.status(screen).contains("III. THE FIRE SERMON")
        }
        try tmux.press("[")
        try tmux.waitUntil("the second section again") { Self.status($0).contains("II. A GAME OF CHESS") }
        // A count: three sections on, the fifth.
        try tmux.press("3", "]")
        try tmux.waitUntil("the fifth section") { Self.status($0).contains("V. WHAT THE THUNDER SAID") }
    }

    @Test func aSearchMatchIsNamedByItsSection() throws {
        let tmux = try TmuxSession(width: 100, height: 30, arguments: ["open", UIFixtures.sample("idpf-wasteland.epub")],
                                   home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitUntil("the first section on the status line") { Self.status($0).contains("I. THE BURIAL OF THE DEAD") }
        try tmux.press("/")
        try tmux.type("Tiresias")
        try tmux.press("Enter")
        try tmux.waitUntil("the match named by the third section") { screen in
            let status = Self.status(screen)
            return status.contains("“Tiresias”") && status.contains("III. THE FIRE SERMON")
        }
        // The list of every match names each one's section: the notes' too.
        try tmux.press("S")
        try tmux.waitUntil("the notes' matches named by the notes") { $0.contains("NOTES ON \"THE WASTE") }
    }

    @Test func aPDFPlaceIsAPage() throws {
        let tmux = try TmuxSession(width: 100, height: 30, arguments: ["open", Fixtures.sample("pdf/pypdf-pdflatex-4-pages.pdf")],
                                   home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitUntil("the first page laid out") { $0.contains("Page 1 of 4") && $0.contains("p. 1/") }
        try tmux.press(":")
        try tmux.type("4")
        try tmux.press("Enter")
        try tmux.waitFor("Page 4 of 4")
        try tmux.press("]")
        try tmux.waitFor("This is the last page.")
    }
}

/// A publication with no table of contents but titled reading-order items lists those titles
/// as its contents (#29 item 14).
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct ContentsFromTitlesUITests {
    @Test func theContentsPopupListsTheReadingOrderTitles() throws {
        let tmux = try TmuxSession(width: 100, height: 30, arguments: ["open", UIFixtures.sample("readium-mobydick.webpub")],
                                   home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitUntil("the first page and its title") { ContentsSectionsUITests.status($0).contains("Title Page") }
        try tmux.press("t")
        try tmux.waitForAll("Chapter 1 - Loomings", "Extracts")
        #expect(!(try tmux.screen()).contains("no table of contents"))
        // Enter on an entry goes there.
        try tmux.press("j", "j", "j", "j", "Enter")
        try tmux.waitUntil("chapter 1") { ContentsSectionsUITests.status($0).contains("Chapter 1 - Loomings") }
    }
}

import Foundation
import Testing
import TestSupport

/// The saved place and the bookmarks of a protected book (LCP, a ZIP password, a PDF
/// password) hold none of its decrypted words: the library database on disk is scanned for the
/// first words of the page read, after the book was read, bookmarked and closed. The book
/// still reopens at that page; an unprotected book's place keeps its text.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct ProtectedPlaceUITests {
    struct Book: CustomTestStringConvertible, Sendable {
        let path: String
        let secret: String?
        var testDescription: String { (path as NSString).lastPathComponent }
    }

    static let protectedBooks = [
        Book(path: UIFixtures.sample("r2streamerjs-wasteland-otf-obf_LCP_dan.epub"), secret: "dan"),
        Book(path: UIFixtures.sample("derived-wasteland-pkzip-secret.epub"), secret: "secret"),
        Book(path: Fixtures.sample("pdf/qpdf-rc4-128-user-open-sesame.pdf"), secret: "open sesame"),
    ]

    /// The text rows of the page (the status line left out).
    static func textRows(_ screen: String) -> [String] {
        Array(screen.split(separator: "\n", omittingEmptySubsequences: false).dropLast(2).map(String.init))
    }

    /// The status line.
    static func statusLine(_ screen: String) -> String {
        screen.split(separator: "\n").last.map(String.init) ?? ""
    }

    /// The first row of text of the page.
    static func firstRow(_ screen: String) -> String? {
        textRows(screen).first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// Opens `book` (typing its secret when asked) and waits for a laid-out page.
    static func open(_ book: Book, home: String) throws -> TmuxSession {
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", book.path], home: home)
        let first = try tmux.waitUntil("the page or the secret's dialog") {
            $0.contains("Password") || $0.contains("Passphrase") || ReaderScreenTests.page($0) != nil
        }
        if ReaderScreenTests.page(first) == nil, let secret = book.secret {
            try tmux.type(secret)
            try tmux.press("Enter")
        }
        try tmux.waitUntil("the page laid out") { ReaderScreenTests.page($0) != nil && !$0.contains("loading…") }
        return tmux
    }

    /// Turns pages until one starts with a line of plain words that are not the chapter's
    /// title (which a bookmark's label may hold); returns the screen and those words.
    static func turnToAPageOfText(_ tmux: TmuxSession) throws -> (screen: String, phrase: String) {
        var screen = try tmux.screen()
        for _ in 0..<8 {
            let before = firstRow(screen)
            try tmux.press("Space")
            // Another page: other text at its top (the status line changes by itself too).
            screen = try tmux.waitUntilSettled("the next page") {
                firstRow($0) != before && !$0.contains("loading…") && ReaderScreenTests.page($0) != nil
            }
            guard let first = firstRow(screen) else { continue }
            let words = first.split(whereSeparator: \.isWhitespace).prefix(3)
            let phrase = words.joined(separator: " ")
            guard words.count == 3, phrase.count >= 10, phrase.allSatisfy({ $0.isASCII }),
                  !statusLine(screen).contains(phrase) else { continue }
            return (screen, phrase)
        }
        throw TmuxSession.Failure(description: "no page starts with three plain words; last screen:\n\(screen)")
    }

    /// Every file of the library database (the journal and write-ahead log too), as bytes.
    static func libraryBytes(home: String) -> [(file: String, data: Data)] {
        let base = home + "/data/lectern/library.sqlite"
        return ["", "-wal", "-journal", "-shm"].compactMap { suffix in
            FileManager.default.contents(atPath: base + suffix).map { (base + suffix, $0) }
        }
    }

    /// Reads a page, bookmarks it, quits; returns the first words of that page and its status.
    static func readBookmarkAndQuit(_ book: Book, home: String) throws -> (phrase: String, page: Int?, top: String?, screen: String) {
        let tmux = try open(book, home: home)
        defer { tmux.close() }
        let (screen, phrase) = try turnToAPageOfText(tmux)
        try tmux.press("m")
        try tmux.waitFor("Bookmark added")
        try tmux.press("'")
        // Settled: the box's rows are drawn after its frame, and the label is read from them.
        let list = try tmux.waitUntilSettled("the bookmarks list") { $0.contains("Bookmarks") && $0.contains("enter jump") }
        if book.secret != nil {
            // The first row of the box, between its borders (the page shows around it).
            let rows = list.split(separator: "\n").map(String.init)
            let label = rows.firstIndex { $0.contains("Bookmarks —") }.flatMap { rows.indices.contains($0 + 1) ? rows[$0 + 1] : nil }
                .map { $0.split(separator: "│", omittingEmptySubsequences: false).dropFirst().first.map(String.init) ?? "" } ?? ""
            #expect(label.contains("%") && !label.contains(phrase), "the bookmark's label: “\(label)”; the page's words: “\(phrase)”")
        }
        try tmux.press("Escape")
        try tmux.waitForAbsence(of: "enter jump")
        try tmux.press("q")
        try tmux.waitForExit()
        return (phrase, ReaderScreenTests.page(screen), firstRow(screen), screen)
    }

    @Test(arguments: protectedBooks)
    func theLibraryHoldsNoDecryptedWords(book: Book) throws {
        let home = try UIFixtures.home()
        let (phrase, page, top, readScreen) = try Self.readBookmarkAndQuit(book, home: home)
        let files = Self.libraryBytes(home: home)
        #expect(!files.isEmpty)
        for (file, data) in files {
            #expect(data.range(of: Data(phrase.utf8)) == nil, "\(file) holds “\(phrase)” in clear")
        }
        // Reopened at that page all the same (by its progression through the chapter).
        let tmux = try Self.open(book, home: home)
        defer { tmux.close() }
        let screen = try tmux.waitUntilSettled("the page read") { Self.firstRow($0) == top }
        #expect(ReaderScreenTests.page(screen) == page, "reopened:\n\(screen)\nread:\n\(readScreen)")
        // The bookmark leads there too, from the next page.
        try tmux.press("Space")
        try tmux.waitUntil("the next page") { Self.firstRow($0) != top && !$0.contains("loading…") }
        try tmux.press("'")
        try tmux.waitForAll("Bookmarks", "enter jump")
        try tmux.press("Enter")
        try tmux.waitUntil("the bookmarked page") { Self.firstRow($0) == top && !$0.contains("enter jump") }
    }

    /// The control: an unprotected book's place keeps the words that find it again, and the
    /// scan above finds them.
    @Test func anUnprotectedBookKeepsItsText() throws {
        let home = try UIFixtures.home()
        let (phrase, _, _, _) = try Self.readBookmarkAndQuit(Book(path: ReaderScreenTests.wasteland, secret: nil), home: home)
        let found = Self.libraryBytes(home: home).contains { $0.data.range(of: Data(phrase.utf8)) != nil }
        #expect(found, "“\(phrase)” is not in the library")
    }
}

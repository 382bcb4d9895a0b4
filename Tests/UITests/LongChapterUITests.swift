import Foundation
import Testing
import TestSupport

/// A long chapter opens on its first screens while the rest of it is converted, and the
/// whole chapter then takes their place without moving the text read or leaving the chapter.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct LongChapterUITests {
    /// Two chapters of about 700 KB of XHTML each: hundreds of pages at 80×24, well above the size from which a first part is shown.
    static func book() throws -> String {
        let path = Fixtures.temporaryDirectory("long-chapter") + "/two-long-chapters.epub"
        try Command.run(["python3", Fixtures.repositoryRoot + "/Benchmarks/make_big_epub.py", "--chapters", "2",
                         "--words", "100000", "--out", path])
        return path
    }

    /// The page count of the status line (its last line: the text above may hold "p. " too)
    /// ("p. 3/2604" → 2604); nil while it is estimated ("p. 3/~2604", "p. 3/…").
    static func pageCount(_ screen: String) -> Int? {
        pageCountFigure(screen).flatMap { Int($0) }
    }

    /// The estimated page count of a first part ("p. 3/~2604" → 2604).
    static func estimatedPageCount(_ screen: String) -> Int? {
        pageCountFigure(screen).flatMap { $0.hasPrefix("~") ? Int($0.dropFirst()) : nil }
    }

    /// What follows the slash of the status line's "p. 3/2604".
    static func pageCountFigure(_ screen: String) -> Substring? {
        guard let range = screen.range(of: "p. ", options: .backwards) else { return nil }
        let figures = screen[range.upperBound...].prefix { $0 != " " }.split(separator: "/")
        return figures.count == 2 ? figures[1] : nil
    }

    @Test func theWholeChapterReplacesItsFirstPartKeepingThePlace() throws {
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", try Self.book()], home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitForAll("BENCHSTART0001", "Chapter 1")
        // The whole chapter is hundreds of pages; shown on its first page, at its first words.
        let screen = try tmux.waitUntil(timeout: 120, "the whole chapter") { (Self.pageCount($0) ?? 0) > 300 }
        #expect(screen.contains("BENCHSTART0001"))
        #expect(screen.contains("p. 1/"))
        try tmux.press("q")
        try tmux.waitForExit()
    }

    /// The page number of the status line ("p. 3/2604" → 3).
    static func page(_ screen: String) -> Int? {
        screen.range(of: "p. ", options: .backwards).flatMap { Int(screen[$0.upperBound...].prefix { $0.isNumber }) }
    }

    /// Whether the page shown is in the middle of the whole first chapter (a quarter of the
    /// two-chapter book), which the first part does not reach.
    static func inTheMiddle(_ screen: String) -> Bool {
        guard let page = page(screen), let count = pageCount(screen), count > 300 else { return false }
        return Double(page) >= 0.4 * Double(count) && Double(page) <= 0.6 * Double(count) && screen.contains("Chapter 1")
    }

    /// A jump to a percentage typed while the first part is shown is carried out in the whole
    /// chapter, not within the part (nor lost).
    @Test func aJumpTypedDuringTheFirstPartReachesTheWholeChapter() throws {
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", try Self.book()], home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitFor("BENCHSTART0001")
        for key in ["2", "5", "%"] { try tmux.press(key) }
        try tmux.waitUntil(timeout: 120, "the middle of the first chapter", Self.inTheMiddle)
    }

    /// Reopened where it was left in the middle of the long chapter (whose length the library
    /// then knows), the book shows that same page.
    @Test func aBookLeftInTheMiddleOfALongChapterReopensThere() throws {
        let book = try Self.book(), home = try UIFixtures.home()
        var left = ""
        do {
            let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", book], home: home)
            defer { tmux.close() }
            try tmux.waitFor("BENCHSTART0001")
            for key in ["2", "5", "%"] { try tmux.press(key) }
            try tmux.waitUntil(timeout: 120, "the middle of the first chapter", Self.inTheMiddle)
            // The book percentage: the chapters are counted and their lengths kept.
            left = try tmux.waitUntil(timeout: 120, "the book counted") { screen in
                Self.inTheMiddle(screen) && screen.split(separator: "\n").last.map { $0.range(of: #"\d+%"#, options: .regularExpression) != nil } == true
            }
            try tmux.press("q")
            try tmux.waitForExit()
        }
        let firstLine = try #require(left.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.count >= 30 })
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", book], home: home)
        defer { tmux.close() }
        let screen = try tmux.waitUntil(timeout: 120, "the page left") { $0.contains(firstLine) && Self.page($0) == Self.page(left) }
        // Shown from its first part, the page count is estimated from the chapter's length
        // ("p. 225/~447" for 450 pages); once whole, counted.
        let count = try #require(Self.pageCount(screen) ?? Self.estimatedPageCount(screen), "\(screen)")
        let counted = try #require(Self.pageCount(left))
        #expect(abs(count - counted) <= counted / 20, "\(screen)")
    }

    /// Paging on from the first part while the rest is read never jumps to the next chapter:
    /// the chapter's end is not known yet.
    @Test func pagingOnFromTheFirstPartStaysInTheChapter() throws {
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", try Self.book()], home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitFor("BENCHSTART0001")
        for _ in 0..<12 { try tmux.press("Space") }
        let screen = try tmux.waitUntil(timeout: 120, "the whole chapter, paged on") { screen in
            (Self.pageCount(screen) ?? 0) > 300 && !screen.contains("BENCHSTART0001")
        }
        #expect(!screen.contains("Chapter 2"), "\(screen)")
        let page = Self.page(screen) ?? 0
        #expect(page >= 2 && page <= 13, "\(screen)")
    }
}

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

    /// The page count of the status line (its last line: the text above may hold "p. " too) ("p. 3/2604" → 2604).
    static func pageCount(_ screen: String) -> Int? {
        guard let range = screen.range(of: "p. ", options: .backwards) else { return nil }
        let figures = screen[range.upperBound...].prefix { $0 != " " }.split(separator: "/")
        return figures.count == 2 ? Int(figures[1]) : nil
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
        let page = screen.range(of: "p. ", options: .backwards).flatMap { Int(screen[$0.upperBound...].prefix { $0.isNumber }) } ?? 0
        #expect(page >= 2 && page <= 13, "\(screen)")
    }
}

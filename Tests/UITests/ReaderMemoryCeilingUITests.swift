import Foundation
import Testing
import TestSupport

/// The reader opens a book of one 20 MB chapter, lays all of it out and searches it within a
/// memory ceiling (issue #15: the reader's costs follow the screen, not the book). The layout
/// used to keep about 130 bytes per byte of XHTML (2.6 GB for this chapter); it now keeps a
/// page index and the lines near the place read, and the search reads a compact text.
///
/// Not under a sanitizer: its shadow memory multiplies the peak, which then says nothing.
@Suite(.enabled(if: TmuxSession.isAvailable && ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil
                    && ProcessInfo.processInfo.environment["TSAN_OPTIONS"] == nil,
                "needs tmux, and no sanitizer"))
struct ReaderMemoryCeilingUITests {
    /// The ceiling on the reader's peak resident memory, in KB: under 13 bytes per byte of
    /// XHTML. A debug build peaks near 180 MB on this book (a release build near 165 MB): the
    /// program, the chapter converted to text with its styles, its page index and the search
    /// text; the rest is margin.
    static let ceilingKB = 256 * 1024

    @Test func aTwentyMegabyteChapterIsReadAndSearchedWithinTheCeiling() throws {
        let book = Fixtures.temporaryDirectory("reader-memory") + "/one-chapter.epub"
        try Command.run(["python3", Fixtures.repositoryRoot + "/Benchmarks/make_big_epub.py", "--chapters", "1",
                         "--words", "2800000", "--out", book])
        defer { try? FileManager.default.removeItem(atPath: (book as NSString).deletingLastPathComponent) }
        let tmux = try TmuxSession(width: 100, height: 30, arguments: ["open", book], home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitForAll("BENCHSTART0001", "Chapter 1")
        // Searched at once, while the chapter's first part is on screen and the rest is read.
        // The last paragraph is found by the book's search, which needs all the chapter's text,
        // and shown on the chapter's last page, which needs all of it laid out.
        try tmux.press("/")
        try tmux.type("BENCHEND0001")
        try tmux.press("Enter")
        // The marker in the text (not only in the status line's message), on the chapter's last page.
        let screen = try tmux.waitUntil(timeout: 900, "the end marker found and shown on the last page") { screen in
            let lines = screen.split(separator: "\n")
            guard let status = lines.last, lines.dropLast().contains(where: { $0.contains("BENCHEND0001") }) else { return false }
            let pages = status.range(of: "p. ").map { status[$0.upperBound...].prefix { $0 != " " }.split(separator: "/") } ?? []
            return pages.count == 2 && pages[0] == pages[1] && (Int(pages[1]) ?? 0) > 5_000
        }
        #expect(!screen.contains("BENCHSTART0001"))
        let peak = try tmux.peakResidentKB()
        #expect(peak < Self.ceilingKB, "peak RSS \(peak / 1024) MB, ceiling \(Self.ceilingKB / 1024) MB")
    }
}

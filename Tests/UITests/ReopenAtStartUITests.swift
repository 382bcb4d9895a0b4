import Foundation
import Testing
import TestSupport

/// A book closed at the start of a long chapter as soon as that chapter was whole (before the
/// book was counted, so that no length is stored) reopens on a first part of the chapter, not
/// after converting all of it (issue 28): seen as the status line's page count, estimated
/// ("p. 1/…") while the rest is read, then counted. Not timed.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct ReopenAtStartUITests {
    @Test func aBookClosedAtTheStartOfALongChapterReopensFromAFirstPart() throws {
        let book = try LongChapterUITests.book(), home = try UIFixtures.home()
        do {
            let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", book], home: home)
            defer { tmux.close() }
            try tmux.waitUntil(timeout: 120, "the whole first chapter") { screen in
                screen.contains("BENCHSTART0001") && (LongChapterUITests.pageCount(screen) ?? 0) > 300
            }
            try tmux.press("q")
            try tmux.waitForExit()
        }
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", book], home: home)
        defer { tmux.close() }
        let first = try tmux.waitUntil(timeout: 120, "the start of the book") { screen in
            screen.contains("BENCHSTART0001") && LongChapterUITests.pageCountFigure(screen) != nil
        }
        // The first page shown is from a first part: the chapter's pages are not counted yet.
        #expect(LongChapterUITests.pageCount(first) == nil, "\(first)")
        #expect(first.contains("p. 1/"), "\(first)")
        // Then the whole chapter replaces it, on the same page.
        let whole = try tmux.waitUntil(timeout: 120, "the whole chapter") { (LongChapterUITests.pageCount($0) ?? 0) > 300 }
        #expect(whole.contains("BENCHSTART0001") && whole.contains("p. 1/"), "\(whole)")
    }
}

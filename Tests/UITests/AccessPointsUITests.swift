import Foundation
import Testing
import TestSupport

/// `lectern open` of a book whose chapter is a long deflated ZIP entry keeps that entry's access
/// points under the cache folder once the chapter has been read to its end (issue 28), so that a
/// later process reopening deep in the chapter inflates from the point before its place, not
/// from the entry's start. The book is opened before the reader is set up (the early opening),
/// so the store must be in place before it.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct AccessPointsUITests {
    @Test func openingALongDeflatedChapterKeepsItsAccessPoints() throws {
        // 700,000 words: about 5 MB of XHTML, above the 4 MiB from which points are kept.
        let book = Fixtures.temporaryDirectory("access-points") + "/one-long-chapter.epub"
        try Command.run(["python3", Fixtures.repositoryRoot + "/Benchmarks/make_big_epub.py", "--chapters", "1",
                         "--words", "700000", "--out", book])
        let home = try UIFixtures.home()
        let folder = home + "/cache/lectern/zip-points"
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", book], home: home)
        defer { tmux.close() }
        try tmux.waitUntil(timeout: 300, "the first page, then the chapter's access points in \(folder)") { screen in
            screen.contains("BENCHSTART0001")
                && ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).contains { $0.hasSuffix(".zran") }
        }
    }
}

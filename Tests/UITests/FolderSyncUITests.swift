import Foundation
import Testing
import TestSupport

/// The reader's annotation sync through a folder (#32), in tmux: another device's highlight,
/// in the folder, is merged when the book opens and drawn on its first page; a highlight made in
/// the reader reaches the folder while the book is still open, and the other device gets it.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct FolderSyncUITests {
    @Test func theReaderMergesWhenABookOpensAndWritesAfterAHighlight() throws {
        let book = UIFixtures.sample("idpf-wasteland.epub")
        let folder = Fixtures.temporaryDirectory("folder-sync-ui")
        let other = LecternProcess()
        #expect(try other.run(["sync", "folder", folder]).status == 0)
        let made = try other.run(["annotate", book, "--quote", "April is the cruellest month"])
        #expect(made.status == 0, "\(made.stderr)")
        let theirs = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try other.run(["sync", "now"]).status == 0)
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first)

        let home = try UIFixtures.home()
        #expect(try LecternProcess(home: home).run(["sync", "folder", folder]).status == 0)
        do {
            let tmux = try TmuxSession(width: 72, height: 24, arguments: ["open", book], home: home)
            defer { tmux.close() }
            try tmux.waitForAll("April is the cruellest month", "p. 1/")
            try tmux.waitUntil(colors: true, "the other device's highlight drawn on cruellest") { screen in
                HighlightUITests.coloredLine(screen, containing: "cruellest").contains("48;5;228m")
            }
            try tmux.press("/")
            try tmux.type("lilacs")
            try tmux.press("Enter")
            try tmux.waitFor("· n next")
            try tmux.press("H")
            try tmux.waitForAll("Highlight —", "1 yellow")
            // Written to the folder with the book still open.
            var written = Data()
            try? StateWait.blocking("the sync file", interval: .milliseconds(100)) {
                written = (try? Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))) ?? Data()
                return written.range(of: Data("Lilacs".utf8)) != nil
            }
            #expect(written.range(of: Data("Lilacs".utf8)) != nil, "\(String(decoding: written, as: UTF8.self))")
            try tmux.press("Escape")
            try tmux.waitForAbsence(of: "Highlight —")
            try tmux.press("q")
            try tmux.waitForExit()
        }
        #expect(try other.run(["sync", "now"]).status == 0)
        let listed = try other.run(["annotations", book, "--json"])
        let items = try #require(listed.json as? [[String: Any]], "\(listed.stdout)\(listed.stderr)")
        #expect(items.count == 2)
        #expect(items.contains { $0["id"] as? String == theirs })
        #expect(items.contains { ($0["quote"] as? String)?.lowercased() == "lilacs" })
    }

    /// While the book stays open, another device's new highlight is drawn once the reader merges
    /// the folder again (every second here; three minutes by default).
    @Test func anOpenBookGetsAnotherDevicesHighlight() throws {
        let book = UIFixtures.sample("idpf-wasteland.epub")
        let folder = Fixtures.temporaryDirectory("folder-sync-ui-open")
        let other = LecternProcess()
        #expect(try other.run(["sync", "folder", folder]).status == 0)
        let home = try UIFixtures.home(importing: [book])
        #expect(try LecternProcess(home: home).run(["sync", "folder", folder]).status == 0)
        let tmux = try TmuxSession(width: 72, height: 24, arguments: ["open", book], home: home,
                                   environment: ["LECTERN_ANNOTATION_SYNC_SECONDS": "1"])
        defer { tmux.close() }
        try tmux.waitForAll("April is the cruellest month", "p. 1/")
        #expect(!HighlightUITests.coloredLine(try tmux.screen(colors: true), containing: "cruellest").contains("48;5;228m"))
        #expect(try other.run(["annotate", book, "--quote", "April is the cruellest month"]).status == 0)
        #expect(try other.run(["sync", "now"]).status == 0)
        try tmux.waitUntil(timeout: 60, colors: true, "the other device's highlight drawn on cruellest while the book is open") { screen in
            HighlightUITests.coloredLine(screen, containing: "cruellest").contains("48;5;228m")
        }
        try tmux.press("q")
        try tmux.waitForExit()
    }

    /// Another device's bookmark, merged while the book is open, is in the open book's bookmark
    /// list: listed at once when the list is open during the merge, and when it opens after.
    @Test func anOpenBooksBookmarkListGetsAnotherDevicesBookmark() throws {
        let book = UIFixtures.sample("idpf-wasteland.epub")
        let folder = Fixtures.temporaryDirectory("folder-sync-ui-bookmark")
        let otherHome = try UIFixtures.home(importing: [book])
        #expect(try LecternProcess(home: otherHome).run(["sync", "folder", folder]).status == 0)
        let home = try UIFixtures.home(importing: [book])
        #expect(try LecternProcess(home: home).run(["sync", "folder", folder]).status == 0)
        let tmux = try TmuxSession(width: 72, height: 24, arguments: ["open", book], home: home,
                                   environment: ["LECTERN_ANNOTATION_SYNC_SECONDS": "1"])
        defer { tmux.close() }
        try tmux.waitForAll("April is the cruellest month", "p. 1/")
        try tmux.press("'")
        try tmux.waitFor("No bookmarks yet")
        do {
            // The other device bookmarks its first page, and its file reaches the folder.
            let other = try TmuxSession(width: 72, height: 24, arguments: ["open", book], home: otherHome)
            defer { other.close() }
            try other.waitForAll("April is the cruellest month", "p. 1/")
            try other.press("m")
            try other.waitFor("Bookmark added")
            try other.press("'")
            try other.waitFor("Bookmarks —")
            try other.press("r")
            try other.type("Their mark")
            try other.press("Enter")
            try other.waitFor("Their mark")
            try other.press("Escape")
            try other.waitForAbsence(of: "Bookmarks —")
            try other.press("q")
            try other.waitForExit()
        }
        #expect(try LecternProcess(home: otherHome).run(["sync", "now"]).status == 0)
        try tmux.waitFor("Their mark", timeout: 120)
        try tmux.press("Escape")
        try tmux.waitForAbsence(of: "Their mark")
        try tmux.press("'")
        try tmux.waitFor("Their mark")
        try tmux.press("Escape")
        try tmux.press("q")
        try tmux.waitForExit()
    }
}

import Foundation
import Testing
import TestSupport

/// The place in a CB7 comic and in a MOBI book is saved and found again on reopening.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct ArchiveAndKindlePlaceUITests {
    static func comic() throws -> String {
        let folder = Fixtures.temporaryDirectory("ui-cb7")
        for (index, colour) in [TestImages.red, TestImages.green, TestImages.blue].enumerated() {
            try TestImages.solid(colour).write(to: URL(fileURLWithPath: folder + "/page\(index + 1).png"))
        }
        let path = folder + "/comic.cb7"
        try Command.run(["7z", "a", "-bd", "-t7z", path, "page1.png", "page2.png", "page3.png"], in: folder)
        return path
    }

    @Test func aCB7ComicReopensAtThePageLeft() throws {
        let path = try Self.comic()
        let home = try UIFixtures.home()
        do {
            let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", path], home: home,
                                       environment: ["LECTERN_IMAGES": "symbols"])
            defer { tmux.close() }
            try tmux.waitFor("1/3")
            try tmux.press("Space")
            try tmux.waitFor("2/3")
            try tmux.press("Space")
            try tmux.waitFor("3/3")
            try tmux.press("q")
            try tmux.waitForExit()
        }
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", path], home: home,
                                   environment: ["LECTERN_IMAGES": "symbols"])
        defer { tmux.close() }
        try tmux.waitFor("3/3")
    }

    @Test func aMOBIBookReopensAtThePageLeft() throws {
        let path = Fixtures.path("libmobi-samples/sample-cp1252.mobi")
        let home = try UIFixtures.home()
        do {
            let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", path], home: home)
            defer { tmux.close() }
            try tmux.waitForAll("This is a sample for testing", "p. 1/")
            try tmux.press("Space")
            try tmux.waitFor("p. 2/")
            try tmux.press("Space")
            try tmux.waitFor("p. 3/")
            try tmux.press("q")
            try tmux.waitForExit()
        }
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", path], home: home)
        defer { tmux.close() }
        try tmux.waitFor("p. 3/")
    }
}

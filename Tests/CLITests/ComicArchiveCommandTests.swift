import Foundation
import Testing
import TestSupport

/// `lectern info`, `check` and `render --images` on comic books in 7z (CB7) and tar (CBT)
/// archives made here, and hostile ones.
@Suite struct ComicArchiveCommandTests {
    static let green = TerminalCells.Color(0, 255, 0)

    /// A comic of a red page then a green one, with ComicInfo.xml, archived by `7z` or `tar`.
    static func comic(_ kind: String) throws -> String {
        let folder = Fixtures.temporaryDirectory("comic-\(kind)")
        try TestImages.solid(TestImages.red).write(to: URL(fileURLWithPath: folder + "/p01.png"))
        try TestImages.solid(TestImages.green).write(to: URL(fileURLWithPath: folder + "/p02.png"))
        let info = "<?xml version=\"1.0\"?><ComicInfo><Title>Red Then Green</Title><Writer>Ada Writer</Writer></ComicInfo>"
        try Data(info.utf8).write(to: URL(fileURLWithPath: folder + "/ComicInfo.xml"))
        let path = Fixtures.temporaryDirectory("comic-archive") + "/comic.\(kind)"
        let names = ["p01.png", "p02.png", "ComicInfo.xml"]
        if kind == "cbt" {
            try Command.run(["tar", "cf", path] + names, in: folder)
        } else {
            try Command.run(["7z", "a", "-bd", "-t7z", path] + names, in: folder)
        }
        return path
    }

    @Test(arguments: ["cb7", "cbt"]) func infoCheckAndRender(kind: String) throws {
        let path = try Self.comic(kind)
        let lectern = LecternProcess()
        let info = try lectern.run(["info", "--json", path])
        #expect(info.status == 0, "\(info.stderr)")
        let json = try #require(info.json as? [String: Any])
        #expect(json["format"] as? String == kind)
        let manifest = try #require(json["manifest"] as? [String: Any])
        #expect((manifest["metadata"] as? [String: Any])?["title"] as? String == "Red Then Green")
        #expect((manifest["readingOrder"] as? [[String: Any]])?.compactMap { $0["href"] as? String } == ["p01.png", "p02.png"])

        let check = try lectern.run(["check", path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")

        let render = try lectern.run(["render", path, "--images", "symbols", "--width", "40", "--height", "30", "--page", "2"],
                                     environment: ["NO_COLOR": ""])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(try #require(TerminalCells(render.stdout).cell(15, 10)?.dominantColor).isClose(to: Self.green))
    }

    @Test func hostileArchivesEndInAClearError() throws {
        let lectern = LecternProcess()
        let folder = Fixtures.temporaryDirectory("comic-hostile")
        // Truncated: the 7z directory sits at the end, so half an archive lists nothing.
        let whole = try Data(contentsOf: URL(fileURLWithPath: try Self.comic("cb7")))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: folder + "/truncated.cb7"))
        let truncated = try lectern.run(["info", folder + "/truncated.cb7"])
        #expect(truncated.status == 2)
        #expect(truncated.stderr.contains("damaged") || truncated.stderr.contains("truncated"), "\(truncated.stderr)")
        // Wrong magic: a .cbr of text is no archive at all.
        try Data("not a RAR archive\n".utf8).write(to: URL(fileURLWithPath: folder + "/text.cbr"))
        let wrong = try lectern.run(["info", folder + "/text.cbr"])
        #expect(wrong.status == 2)
        #expect(!wrong.stderr.isEmpty)
        // A bomb: 100 MiB of zeros as a page, a few kilobytes in 7z: refused past 64 MiB.
        try Data(count: 100 << 20).write(to: URL(fileURLWithPath: folder + "/p01.png"))
        try Command.run(["7z", "a", "-bd", "-t7z", "bomb.cb7", "p01.png"], in: folder)
        try FileManager.default.removeItem(atPath: folder + "/p01.png")
        let bomb = try lectern.run(["check", folder + "/bomb.cb7"])
        #expect(bomb.status == 1, "\(bomb.stdout)\(bomb.stderr)")
        #expect((bomb.stdout + bomb.stderr).contains("64 MiB"), "\(bomb.stdout)\(bomb.stderr)")
    }
}

import Foundation
import TestSupport

/// Comic books in 7z and tar archives made by the tests (with `7z` and `tar`), and the RAR
/// archives of libarchive's own test suite (Tests/Fixtures/libarchive-rar, see its README).
enum ComicArchiveFixtures {
    static let colours: [TestImages.RGB] = [TestImages.red, TestImages.green, TestImages.blue]

    static func rar(_ name: String) -> String {
        Fixtures.path("libarchive-rar/\(name).rar")
    }

    /// A folder of `count` PNG pages (`page1.png`…, in colours red, green, blue, red…) and,
    /// when `comicInfo` is true, a ComicInfo.xml naming title, series and writer.
    static func pages(count: Int = 3, comicInfo: Bool = true) throws -> (folder: String, names: [String]) {
        let folder = Fixtures.temporaryDirectory("comic-pages")
        var names: [String] = []
        for page in 1...count {
            let name = "page\(page).png"
            let colour = colours[(page - 1) % colours.count]
            try TestImages.png(width: 40, height: 60) { _, _ in colour }.write(to: URL(fileURLWithPath: folder + "/" + name))
            names.append(name)
        }
        if comicInfo {
            let info = """
                <?xml version="1.0"?>
                <ComicInfo><Title>Three Colours</Title><Series>Primaries</Series><Number>2</Number>\
                <Writer>Ada Writer</Writer><LanguageISO>en</LanguageISO></ComicInfo>
                """
            try Data(info.utf8).write(to: URL(fileURLWithPath: folder + "/ComicInfo.xml"))
            names.append("ComicInfo.xml")
        }
        return (folder, names)
    }

    /// A solid 7z archive (`.cb7`) of the pages.
    static func sevenZip(count: Int = 3, comicInfo: Bool = true, name: String = "comic.cb7") throws -> String {
        let (folder, names) = try pages(count: count, comicInfo: comicInfo)
        let path = Fixtures.temporaryDirectory("comic-7z") + "/" + name
        try Command.run(["7z", "a", "-bd", "-ms=on", "-t7z", path] + names, in: folder)
        return path
    }

    /// A tar archive (`.cbt`) of the pages.
    static func tar(count: Int = 3, comicInfo: Bool = true, name: String = "comic.cbt") throws -> String {
        let (folder, names) = try pages(count: count, comicInfo: comicInfo)
        let path = Fixtures.temporaryDirectory("comic-tar") + "/" + name
        try Command.run(["tar", "cf", path] + names, in: folder)
        return path
    }

    /// A 7z archive holding one entry of `megabytes` MiB of zeros named like a page: a few
    /// kilobytes that expand a thousandfold.
    static func sevenZipBomb(megabytes: Int) throws -> String {
        let folder = Fixtures.temporaryDirectory("comic-bomb")
        try Data(count: megabytes << 20).write(to: URL(fileURLWithPath: folder + "/page1.png"))
        let path = folder + "/bomb.cb7"
        try Command.run(["7z", "a", "-bd", "-t7z", path, "page1.png"], in: folder)
        try FileManager.default.removeItem(atPath: folder + "/page1.png")
        return path
    }
}

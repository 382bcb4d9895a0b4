import Foundation
import Testing
import TestSupport

/// CBR comics made by RAR itself (Tests/Fixtures/rar-comics, see its README): opened, checked
/// and their pages drawn as the same pictures in a tar; passworded RAR and 7z archives refused
/// with a message naming the protection and what libarchive cannot do.
@Suite struct RARComicCommandTests {
    static let folder = Fixtures.path("rar-comics")

    /// The two pictures the CBRs hold, in a tar made here: the pages the CBRs must draw.
    static func sameComicAsTar() throws -> String {
        let path = Fixtures.temporaryDirectory("rar-comic-tar") + "/comic.cbt"
        try Command.run(["tar", "cf", path, "testfile.jpg", "testfile.png"], in: folder)
        return path
    }

    static func render(_ path: String, page: Int) throws -> String {
        let render = try LecternProcess().run(["render", path, "--images", "symbols", "--width", "20", "--height", "10",
                                               "--page", String(page)], environment: ["NO_COLOR": ""])
        #expect(render.status == 0, "\(path) page \(page): \(render.stderr)")
        return render.stdout
    }

    @Test(arguments: ["testfile.rar3.cbr", "testfile.rar5.cbr", "testfile.rar5.solid.cbr"])
    func aCBRMadeByRAROpensAndDrawsItsPages(name: String) throws {
        let path = Self.folder + "/" + name
        let lectern = LecternProcess()
        let info = try lectern.run(["info", "--json", path])
        #expect(info.status == 0, "\(info.stderr)")
        let json = try #require(info.json as? [String: Any])
        #expect(json["format"] as? String == "cbr")
        let manifest = try #require(json["manifest"] as? [String: Any])
        #expect((manifest["readingOrder"] as? [[String: Any]])?.compactMap { $0["href"] as? String } == ["testfile.jpg", "testfile.png"])
        let check = try lectern.run(["check", path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let tar = try Self.sameComicAsTar()
        for page in 1...2 {
            let drawn = try Self.render(path, page: page)
            #expect(drawn.contains("\u{1B}["), "page \(page) drew no picture: \(drawn)")
            #expect(drawn == (try Self.render(tar, page: page)), "page \(page) differs from the same picture in a tar")
        }
    }

    /// libarchive reads a solid RAR 4 archive's first entry only: said so, not "damaged".
    @Test func aSolidRAR4ArchiveIsRefusedNamingWhatIsNotSupported() throws {
        let path = Self.folder + "/testfile.rar3.solid.cbr"
        for command in ["info", "check"] {
            let result = try LecternProcess().run([command, path])
            #expect(result.status != 0)
            let said = result.stdout + result.stderr
            #expect(said.contains("this is a solid RAR 4 archive, which libarchive") && said.contains("it reads RAR 5 archives")
                    && !said.contains("damaged"), "\(command): \(said)")
        }
    }

    /// 7z encrypts with AES-256, which libarchive does not decrypt (it decrypts only ZIP's):
    /// the contents alone (`-p`) or the names too (`-mhe=on`); RAR encryption neither. Never
    /// called damaged: the archive is sound.
    @Test func passwordedArchivesAreRefusedNamingWhatIsNotSupported() throws {
        let folder = Fixtures.temporaryDirectory("comic-passworded")
        try TestImages.solid(TestImages.red).write(to: URL(fileURLWithPath: folder + "/p01.png"))
        try Command.run(["7z", "a", "-bd", "-t7z", "-psecret", "contents.cb7", "p01.png"], in: folder)
        try Command.run(["7z", "a", "-bd", "-t7z", "-psecret", "-mhe=on", "names.cb7", "p01.png"], in: folder)
        let cases = [(folder + "/contents.cb7", "7z's AES-256"), (folder + "/names.cb7", "7z's AES-256"),
                     (Fixtures.path("libarchive-rar/test_read_format_rar_encryption_data.rar"), "RAR")]
        let lectern = LecternProcess()
        for (path, format) in cases {
            for command in ["info", "check"] {
                let result = try lectern.run([command, path])
                #expect(result.status == 2 || result.status == 1, "\(command) \(path): \(result.status)")
                let said = result.stdout + result.stderr
                #expect(said.contains("archive is password-protected") && said.contains("cannot decrypt \(format) encryption")
                        && said.contains("only ZIP archives") && !said.contains("damaged"), "\(command) \(path): \(said)")
                #expect(!said.contains("secret"))
            }
        }
    }
}

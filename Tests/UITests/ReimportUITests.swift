import Foundation
import Testing
import TestSupport

/// `lectern import` run again on books already in the library (as `make run` does each
/// time): an unlocked password-protected book keeps the title its archive hid, and the
/// output does not claim the books were added.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct ReimportUITests {
    static func entries(home: String) throws -> [[String: Any]] {
        let result = try LecternProcess(home: home).run(["list", "--json"])
        return try #require(result.json as? [[String: Any]], "list: \(result.stderr)")
    }

    static func title(of path: String, home: String) throws -> String? {
        try entries(home: home).first { $0["path"] as? String == path }?["title"] as? String
    }

    @Test func reimportKeepsTheTitleOfAnUnlockedBook() throws {
        let directory = Fixtures.temporaryDirectory("lectern-reimport")
        let book = directory + "/derived-wasteland-pkzip-secret.epub"
        try FileManager.default.copyItem(atPath: CredentialsUITests.zip, toPath: book)
        let home = try UIFixtures.home(importing: [book])
        #expect(try Self.title(of: book, home: home) == "derived-wasteland-pkzip-secret")

        // Unlocked in the reader: the title and author the archive hid are recorded.
        let tmux = try TmuxSession(width: 100, height: 24, arguments: ["open", book], home: home)
        defer { tmux.close() }
        try tmux.waitForAll("Password", "password-protected ZIP")
        try tmux.type("secret")
        try tmux.press("Enter")
        try tmux.waitFor("April is the cruellest month")
        try tmux.press("q")
        try tmux.waitForExit()
        #expect(try Self.title(of: book, home: home) == "The Waste Land")

        let again = try LecternProcess(home: home).run(["import", directory])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout == "already in the library: The Waste Land [password] — \(book)\n")
        let entry = try #require(try Self.entries(home: home).first { $0["path"] as? String == book })
        #expect(entry["title"] as? String == "The Waste Land")
        #expect(entry["author"] as? String == "T.S. Eliot")
        #expect(entry["protection"] as? String == "password")
    }

    @Test func reimportSaysTheBooksWereAlreadyThere() throws {
        let open = UIFixtures.sample("idpf-wasteland.epub")
        let home = try UIFixtures.home(importing: [open])
        let again = try LecternProcess(home: home).run(["import", open])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout == "already in the library: The Waste Land — \(open)\n")
        #expect(try Self.entries(home: home).count == 1)
    }
}

import Foundation
import Testing
import TestSupport

/// The one passphrase dialog: LCP passphrases and ZIP passwords, asked only when a
/// publication is opened to be read.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct CredentialsUITests {
    static let lcp = UIFixtures.sample("r2streamerjs-wasteland-otf-obf_LCP_dan.epub")
    static let zip = UIFixtures.sample("derived-wasteland-pkzip-secret.epub")

    @Test func lcpDialogShowsTheHintAndAcceptsDanAfterAWrongAttempt() throws {
        let home = try UIFixtures.home(importing: [Self.lcp])
        let tmux = try TmuxSession(width: 90, height: 24, arguments: [], home: home)
        defer { tmux.close() }
        try tmux.waitFor("The Waste Land")
        try tmux.press("Enter")
        var screen = try tmux.waitForAll("Passphrase", "The Waste Land", "Hint: Your nickname?", "Hint page: https://")
        try tmux.type("notdan")
        screen = try tmux.waitFor("••••••")
        #expect(!screen.contains("notdan"))
        try tmux.press("C-r")
        try tmux.waitFor("> notdan")
        try tmux.press("Enter")
        screen = try tmux.waitForAll("Wrong passphrase", "Hint: Your nickname?")
        try tmux.type("dan")
        try tmux.press("Enter")
        try tmux.waitFor("April is the cruellest month")
    }

    @Test func escapeLeavesTheLCPPublicationRestricted() throws {
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", Self.lcp], home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitFor("Passphrase")
        try tmux.press("Escape")
        let screen = try tmux.waitForAll("Cannot show this publication", "You cancelled the passphrase dialog")
        #expect(screen.lowercased().contains("passphrase"))
        #expect(!screen.contains("April is the cruellest month"))
        // Enter asks again; the right passphrase opens it.
        try tmux.press("Enter")
        try tmux.waitFor("Hint: Your nickname?")
        try tmux.type("dan")
        try tmux.press("Enter")
        try tmux.waitFor("April is the cruellest month")
    }

    @Test func zipPasswordAsksForSecret() throws {
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", Self.zip], home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitForAll("Password", "password-protected ZIP")
        try tmux.type("nope")
        try tmux.press("Enter")
        try tmux.waitUntil("the refusal") { $0.contains("Password") && ($0.lowercased().contains("wrong") || $0.lowercased().contains("incorrect")) }
        try tmux.type("secret")
        try tmux.press("Enter")
        try tmux.waitFor("April is the cruellest month")
    }

    @Test func escapeOnAZipPasswordSaysWhatToDo() throws {
        let tmux = try TmuxSession(width: 60, height: 16, arguments: ["open", Self.zip], home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitFor("Password")
        try tmux.press("Escape")
        try tmux.waitForAll("Cannot show this publication", "You cancelled")
    }

    @Test func dialogFitsATinyWindow() throws {
        let tmux = try TmuxSession(width: 40, height: 12, arguments: ["open", Self.lcp], home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitForAll("Passphrase", "> ", "esc cancel")
        try tmux.type("dan")
        try tmux.press("Enter")
        try tmux.waitFor("p. 1/")
    }
}

/// A ZIP password typed once is remembered (sealed, never in clear), the shelf shows the
/// book's real title, the next open does not ask, and `P` forgets it.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct RememberedPasswordUITests {
    @Test func theZipPasswordIsRememberedAndForgotten() throws {
        let directory = Fixtures.temporaryDirectory("lectern-zip-password")
        let book = directory + "/locked.epub"
        try FileManager.default.copyItem(atPath: CredentialsUITests.zip, toPath: book)
        let home = try UIFixtures.home(importing: [book])
        let tmux = try TmuxSession(width: 100, height: 24, arguments: [], home: home)
        defer { tmux.close() }
        try tmux.waitUntil("the locked book listed by its file name") { screen in
            screen.split(separator: "\n").contains { $0.contains("locked") && $0.contains("password") }
        }
        try tmux.press("Enter")
        try tmux.waitForAll("Password", "password-protected ZIP")
        try tmux.type("secret")
        try tmux.press("Enter")
        try tmux.waitFor("April is the cruellest month")
        try tmux.press("q")
        try tmux.waitUntil("the title and author the archive hid") { screen in
            screen.split(separator: "\n").contains { $0.contains("The Waste Land") && $0.contains("Eliot") && $0.contains("password") }
        }
        // Sealed: the password is nowhere in clear in the library, its journal or the config.
        for file in ["/data/lectern/library.sqlite", "/data/lectern/library.sqlite-wal", "/config/lectern/config.toml"] {
            guard let data = FileManager.default.contents(atPath: home + file) else { continue }
            #expect(data.range(of: Data("secret".utf8)) == nil, "\(file) holds the password in clear")
        }
        // Opened again without a question.
        try tmux.press("Enter")
        try tmux.waitFor("April is the cruellest month")
        #expect(!(try tmux.screen().contains("Password")))
        try tmux.press("q")
        try tmux.waitFor("The Waste Land")
        try tmux.press("P")
        try tmux.waitFor("Forgot the password of \"The Waste Land\": the next open asks for it.")
        try tmux.press("Enter")
        try tmux.waitForAll("Password", "password-protected ZIP")
        try tmux.press("Escape")
        try tmux.waitFor("You cancelled")
        // Nothing is remembered any more: the command says so.
        let forget = try LecternProcess(home: home).run(["forget-password", book])
        #expect(forget.status == 1)
        #expect(forget.stderr.contains("no password is remembered"))
    }
}

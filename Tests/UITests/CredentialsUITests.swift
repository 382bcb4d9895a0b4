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

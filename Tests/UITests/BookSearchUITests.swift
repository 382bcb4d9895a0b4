import Foundation
import Testing
import TestSupport

/// Whole-book search in the reader: the book's text index (counts, the list of matches, the
/// search options), and its cache, which only unprotected books get.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct BookSearchUITests {
    /// Presses `S` until the list says the whole book was searched (the index is built in the
    /// background after the first page: a state to wait for, not a time).
    func completeList(_ tmux: TmuxSession, title: String) throws -> String {
        let deadline = Date().addingTimeInterval(60)
        while true {
            try tmux.press("S")
            // The title line ends with the keys: drawn whole, it says whether the list is complete.
            let screen = try tmux.waitUntil("the list of matches") { screen in
                screen.split(separator: "\n").contains { $0.contains(title) && $0.contains("esc close") }
            }
            let titleLine = screen.split(separator: "\n").first { $0.contains(title) && $0.contains("esc close") } ?? ""
            if !titleLine.contains("so far") { return screen }
            guard Date() < deadline else { throw TmuxSession.Failure(description: "the index never completed:\n\(screen)") }
            try tmux.press("Escape")
            try tmux.waitForAbsence(of: title)
        }
    }

    @Test func countsListsAndGoesToMatches() throws {
        let home = try UIFixtures.home()
        let book = Fixtures.sample("epub/idpf-moby-dick.epub")
        let tmux = try TmuxSession(width: 100, height: 30, arguments: ["open", book], home: home)
        defer { tmux.close() }
        try tmux.waitFor("p. 1/")
        try tmux.press("/")
        try tmux.type("harpooneer")
        try tmux.press("Enter")
        try tmux.waitFor("· n next")
        let list = try completeList(tmux, title: "“harpooneer” —")
        let total = try #require(list.firstMatch(of: /“harpooneer” — (\d+) matches/).flatMap { Int($0.1) })
        #expect(total > 20)
        // The third match, from the list: the status line says where it is.
        try tmux.press("j", "j", "Enter")
        try tmux.waitFor("“harpooneer” 3/\(total)")
        try tmux.press("n")
        try tmux.waitUntil("the fourth match") { $0.contains("“harpooneer” 4/\(total)") }

        // Options: a regular expression, and whole words.
        try tmux.press("/")
        try tmux.type("re:harpoone+rs?\\b")
        try tmux.press("Enter")
        try tmux.waitFor("· n next")
        let regex = try completeList(tmux, title: "“re:harpoone+rs?\\b” —")
        let regexTotal = try #require(regex.firstMatch(of: /— (\d+) matches/).flatMap { Int($0.1) })
        #expect(regexTotal > 100 && regexTotal <= total)
        try tmux.press("Escape")
        try tmux.press("/")
        try tmux.type("re:(unclosed")
        try tmux.press("Enter")
        try tmux.waitFor("not a valid regular expression")

        // Unprotected: the text is cached for the next opening.
        try tmux.press("q")
        try tmux.waitForExit()
        let cached = try FileManager.default.contentsOfDirectory(atPath: home + "/cache/lectern/text")
        #expect(cached.count == 1)
    }

    @Test func aProtectedBooksTextNeverReachesTheCache() throws {
        let home = try UIFixtures.home()
        let book = UIFixtures.sample("derived-wasteland-pkzip-secret.epub")
        let tmux = try TmuxSession(width: 100, height: 30, arguments: ["open", book], home: home)
        defer { tmux.close() }
        try tmux.waitFor("Password")
        try tmux.type("secret")
        try tmux.press("Enter")
        try tmux.waitFor("p. 1/")
        try tmux.press("/")
        try tmux.type("Tiresias")
        try tmux.press("Enter")
        try tmux.waitFor("· n next")
        _ = try completeList(tmux, title: "“Tiresias” —")
        try tmux.press("Escape")
        try tmux.press("q")
        try tmux.waitForExit()
        let cached = (try? FileManager.default.contentsOfDirectory(atPath: home + "/cache/lectern/text")) ?? []
        #expect(cached.isEmpty)
    }
}

import Foundation
import Testing
import TestSupport

/// `K` looks a word up with `sdcv` (a stand-in script on PATH here) and shows the answer in a
/// popup; without a dictionary program it says what to install.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct DictionaryUITests {
    /// A book whose page starts with "Serendipity,".
    static func book() throws -> String {
        let path = Fixtures.temporaryDirectory("dictionary-book") + "/words.epub"
        try TestEPUBs.write(title: "Words", body: "<p>Serendipity, said the reader, is finding words.</p>", to: path)
        return path
    }

    /// A folder with an `sdcv` that prints a definition of its last argument and writes its
    /// arguments to `arguments.txt` beside it.
    static func fakeSdcv() throws -> String {
        let folder = Fixtures.temporaryDirectory("fake-sdcv")
        let script = """
            #!/bin/sh
            printf '%s\\n' "$@" > "\(folder)/arguments.txt"
            for word; do :; done
            printf -- '-->Test Dictionary\\n-->%s\\n\\nthe faculty of making happy discoveries: %s\\n' "$word" "$word"
            """
        try script.write(toFile: folder + "/sdcv", atomically: true, encoding: .utf8)
        chmod(folder + "/sdcv", 0o755)
        return folder
    }

    @Test func lookUpShowsTheDefinitionOfTheFirstWordOrTheSelection() throws {
        let folder = try Self.fakeSdcv()
        let path = folder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let tmux = try TmuxSession(width: 70, height: 20, arguments: ["open", try Self.book()], home: try UIFixtures.home(),
                                   environment: ["PATH": path])
        defer { tmux.close() }
        try tmux.waitFor("Serendipity, said the reader")
        try tmux.press("K")
        try tmux.waitForAll("the faculty of making happy discoveries: Serendipity", "Serendipity (sdcv)")
        let arguments = try String(contentsOfFile: folder + "/arguments.txt", encoding: .utf8)
        #expect(arguments == "-n\n--utf8-output\nSerendipity\n")
        try tmux.press("Escape")
        try tmux.waitForAbsence(of: "happy discoveries")
        // In a selection: the word at its cursor.
        try tmux.press("v")
        try tmux.press("K")
        try tmux.waitFor("happy discoveries: Serendipity")
    }

    @Test func withoutADictionaryItSaysWhatToInstall() throws {
        let empty = Fixtures.temporaryDirectory("no-dictionary")
        let tmux = try TmuxSession(width: 100, height: 20, arguments: ["open", try Self.book()], home: try UIFixtures.home(),
                                   environment: ["PATH": empty])
        defer { tmux.close() }
        try tmux.waitFor("Serendipity, said the reader")
        try tmux.press("K")
        try tmux.waitFor("No dictionary installed: install sdcv (StarDict) or dict (dictd)")
    }
}

import Foundation
import Testing
import TestSupport

/// `lectern doctor`: what a bug report needs, and nothing secret or personal.
@Suite struct DoctorCommandTests {
    let lectern = LecternProcess()

    @Test func saysVersionTerminalLibrariesAndPathsButNoSecret() throws {
        let book = Fixtures.sample("protected-zip/derived-wasteland-pkzip-secret.epub")
        #expect(try lectern.run(["import", Fixtures.sample("epub/idpf-moby-dick.epub"), book]).status == 0)
        _ = try lectern.run(["check", "--password", "secret", book])
        let result = try lectern.run(["doctor", "--json"], environment: ["TERM": "xterm-256color", "COLORTERM": ""])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(result.json as? [String: [String: String]])
        #expect(report["lectern"]?["version"]?.isEmpty == false)
        #expect(report["lectern"]?["commit"] != nil)
        #expect(report["terminal"]?["TERM"] == "xterm-256color")
        #expect(report["terminal"]?["colours"] == "256")
        #expect(report["libraries"]?["libcurl (network, LCP status)"]?.hasPrefix("found") == true)
        #expect(report["paths"]?["library database"] == lectern.home + "/data/lectern/library.sqlite")
        #expect(report["library"]?["publications"] == "2")
        // Nothing from the library's books, and no secret.
        for forbidden in ["secret", "Moby", "Waste Land", "wasteland", "moby-dick"] {
            #expect(!result.stdout.contains(forbidden), "doctor printed \(forbidden)")
        }
        let text = try lectern.run(["doctor"])
        #expect(text.stdout.contains("Libraries\n"))
        #expect(text.stdout.contains("  version: "))
    }

    /// Every mistake of config.toml, with its line: the reader's status line shows only the first.
    @Test func listsEveryMistakeOfTheConfiguration() throws {
        let folder = lectern.home + "/config/lectern"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("colour = \"red\"\n[reader]\ntext_width = \"wide\"\n".utf8).write(to: URL(fileURLWithPath: folder + "/config.toml"))
        let result = try lectern.run(["doctor"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Configuration\n"), "\(result.stdout)")
        #expect(result.stdout.contains("config.toml line 1: colour: unknown setting"))
        #expect(result.stdout.contains("config.toml line 3: [reader] text_width: expected a whole number"))
    }

    @Test func versionNamesTheCommit() throws {
        let result = try lectern.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.range(of: #"^\d+\.\d+\.\d+ \(commit [0-9a-z]+\)\n$"#, options: .regularExpression) != nil, "\(result.stdout)")
    }
}

import Foundation
import Testing
import TestSupport

/// Highlights take their colours from the active theme (#31): on the dark theme deep marks
/// under white text and light inks, on the light theme pale marks and dark inks (capture-pane
/// -e); under `NO_COLOR` the same highlights keep their styles (reverse video, underline).
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct HighlightThemeUITests {
    static let wasteland = UIFixtures.sample("idpf-wasteland.epub")

    /// A home whose library has a solid yellow highlight on "cruellest" and a yellow underline
    /// on "Lilacs", and whose config chooses `theme`.
    static func home(theme: String) throws -> String {
        let home = try UIFixtures.home()
        let lectern = LecternProcess(home: home)
        let solid = try lectern.run(["annotate", wasteland, "--quote", "cruellest"])
        #expect(solid.status == 0, "\(solid.stderr)")
        let underline = try lectern.run(["annotate", wasteland, "--quote", "Lilacs", "--style", "underline"])
        #expect(underline.status == 0, "\(underline.stderr)")
        try FileManager.default.createDirectory(atPath: home + "/config/lectern", withIntermediateDirectories: true)
        try "theme = \"\(theme)\"\n".write(toFile: home + "/config/lectern/config.toml", atomically: true, encoding: .utf8)
        return home
    }

    /// (theme, the solid yellow's background, the yellow ink) as `Themes/*.toml` give them.
    @Test(arguments: [("dark", "48;5;58", "38;5;221"), ("light", "48;5;229", "38;5;94")])
    func highlightsAreDrawnInTheThemesColours(_ theme: String, _ solid: String, _ ink: String) throws {
        let home = try Self.home(theme: theme)
        do {
            let tmux = try TmuxSession(width: 72, height: 24, arguments: ["open", Self.wasteland], home: home)
            defer { tmux.close() }
            try tmux.waitForAll("April is the cruellest month", "p. 1/")
            // Both lines read from one capture that showed both marks.
            try tmux.waitUntil(colors: true, "the \(theme) theme's highlight colours") { screen in
                HighlightUITests.coloredLine(screen, containing: "cruellest").contains(solid)
                    && HighlightUITests.coloredLine(screen, containing: "Lilacs").contains(ink)
                    && !screen.contains("48;5;228")  // not the default theme's yellow
            }
            try tmux.press("q")
            try tmux.waitForExit()
        }
        // Without colours, whatever the theme: reverse video and underline.
        let tmux = try TmuxSession(width: 72, height: 24, arguments: ["open", Self.wasteland], home: home,
                                   environment: ["NO_COLOR": "1"])
        defer { tmux.close() }
        try tmux.waitForAll("April is the cruellest month", "p. 1/")
        try tmux.waitUntil(colors: true, "the highlights' styles without colours") { screen in
            let solidLine = HighlightUITests.coloredLine(screen, containing: "cruellest")
            let underlineLine = HighlightUITests.coloredLine(screen, containing: "Lilacs")
            return solidLine.contains("7mcruellest") && underlineLine.contains("4mLilacs") && !screen.contains("38;5;")
        }
    }
}

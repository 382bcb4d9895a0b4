import Foundation
import ReaderUI
import Testing
import TestSupport

@Suite struct ReaderConfigTests {
    /// Choosing a theme rewrites the `theme` line only: other keys that start with "theme",
    /// comments and tables are kept as they were.
    @Test func savingTheThemeRewritesOnlyItsLine() throws {
        let path = Fixtures.temporaryDirectory("config") + "/config.toml"
        let original = """
            # theme = "commented"
            theme_dir = "/somewhere"
            theme = "light"
            justify = true

            [keys]
            theme = "T"
            """
        try Data(original.utf8).write(to: URL(fileURLWithPath: path))
        try ReaderConfig.saveTheme("dark", path: path)
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved == """
            # theme = "commented"
            theme_dir = "/somewhere"
            theme = "dark"
            justify = true

            [keys]
            theme = "T"

            """)
    }

    @Test func aConfigWithoutThemeGetsOneAtTheTop() throws {
        let path = Fixtures.temporaryDirectory("config") + "/config.toml"
        try Data("theme_dir = \"/x\"\n".utf8).write(to: URL(fileURLWithPath: path))
        try ReaderConfig.saveTheme("sepia", path: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "theme = \"sepia\"\ntheme_dir = \"/x\"\n")
    }
}

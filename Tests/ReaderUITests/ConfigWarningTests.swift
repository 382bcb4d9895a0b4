import Foundation
@testable import ReaderSettings
@testable import ReaderUI
import Terminal
import Testing
import TestSupport

/// `config.toml` mistakes (#29 item 16): every unknown key and wrong value is reported once,
/// with its line, and the `?` help names the actions `[keys]` takes.
@Suite struct ConfigWarningTests {
    static func load(_ text: String) throws -> ReaderConfig {
        let path = Fixtures.temporaryDirectory("config") + "/config.toml"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return ReaderConfig.load(path: path)
    }

    @Test func everyMistakeIsReportedOnceWithItsLine() throws {
        let config = try Self.load("""
            theme = "nosuch"
            colour = "red"
            [reader]
            text_width = "wide"
            margin = 99
            justify = "yes"
            [keys]
            page_down = ["space", "nokey"]
            flip = "x"
            """)
        #expect(config.warnings == [
            "config.toml line 1: theme: \"nosuch\" is not a theme (default, dark, light, sepia, high-contrast, or themes/nosuch.toml)",
            "config.toml line 2: colour: unknown setting (known: calibre_library, images, keys, reader, theme)",
            "config.toml line 4: [reader] text_width: expected a whole number, not \"wide\"",
            "config.toml line 5: [reader] margin: 99 is not within 0 to 40; using 40",
            "config.toml line 6: [reader] justify: expected true or false",
            "config.toml line 8: [keys] page_down: unknown key \"nokey\"",
            "config.toml line 9: [keys] flip: unknown action (the actions: \(ReaderAction.allCases.map(\.rawValue).joined(separator: ", ")))",
        ])
        // What was wrong is not in force; what was right is.
        #expect(config.themeName == "default")
        #expect(config.textWidth == 80)
        #expect(config.margin == 40)
        #expect(config.keyMap.action(for: .character(" ")) == .pageDown)
    }

    /// The status line at start names the first mistake and how many more there are.
    @Test func theStartMessageCountsTheOtherMistakes() {
        #expect(ReaderConfig.warningSummary([]) == nil)
        #expect(ReaderConfig.warningSummary(["a"]) == "a")
        #expect(ReaderConfig.warningSummary(["a", "b", "c"]) == "a (and 2 more: lectern doctor lists them)")
    }

    @Test func aCorrectFileGivesNoWarning() throws {
        let config = try Self.load("""
            theme = "sepia"
            images = "off"
            [reader]
            text_width = 0
            bidi = "terminal"
            [keys]
            page_down = ["space", "J"]
            """)
        #expect(config.warnings.isEmpty)
        #expect(config.themeName == "sepia")
        #expect(config.textWidth == 0)
    }

    /// The README says `?` lists the action names `[keys]` takes: every one is in the help.
    @Test func helpListsEveryActionName() {
        let words = Set(HelpState(keyMap: KeyMap()).lines.joined(separator: " ").split(separator: " ").map(String.init))
        let missing = ReaderAction.allCases.map(\.rawValue).filter { !words.contains($0) }
        #expect(missing.isEmpty, "\(missing)")
    }
}

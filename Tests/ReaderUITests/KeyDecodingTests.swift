import CLecternCurses
@testable import Terminal
import Testing

/// What ncurses' `wget_wch` answers becomes the `Key` the reader's key map looks up: a
/// character code for plain keys, a `KEY_*` code for the others.
@MainActor @Suite struct KeyDecodingTests {
    @Test func controlCharactersAreNamedKeys() {
        #expect(TerminalScreen.characterKey(10) == .enter)
        #expect(TerminalScreen.characterKey(13) == .enter)
        #expect(TerminalScreen.characterKey(27) == .escape)
        #expect(TerminalScreen.characterKey(9) == .tab)
        #expect(TerminalScreen.characterKey(8) == .backspace)
        #expect(TerminalScreen.characterKey(127) == .backspace)
    }

    /// Ctrl-A … Ctrl-Z arrive as 1 … 26 (except those above: Ctrl-H, Ctrl-I, Ctrl-J, Ctrl-M).
    @Test func controlLettersAreLowercaseLetters() {
        #expect(TerminalScreen.characterKey(0) == .control("@"))
        #expect(TerminalScreen.characterKey(1) == .control("a"))
        #expect(TerminalScreen.characterKey(4) == .control("d"))
        #expect(TerminalScreen.characterKey(21) == .control("u"))
        #expect(TerminalScreen.characterKey(26) == .control("z"))
        #expect(TerminalScreen.characterKey(4).name == "C-d")
    }

    @Test func printableCharactersAreThemselves() {
        #expect(TerminalScreen.characterKey(32) == .character(" "))
        #expect(TerminalScreen.characterKey(32).name == "space")
        #expect(TerminalScreen.characterKey(UInt32(UInt8(ascii: "j"))) == .character("j"))
        #expect(TerminalScreen.characterKey(UInt32(UInt8(ascii: "G"))) == .character("G"))
        #expect(TerminalScreen.characterKey(0xE9) == .character("é"))
        #expect(TerminalScreen.characterKey(0x4E2D) == .character("中"))
        #expect(TerminalScreen.characterKey(0x1F600) == .character("😀"))
    }

    /// A code that is no Unicode scalar (a lone surrogate, beyond U+10FFFF) is not a character.
    @Test func codesThatAreNoScalarAreOther() {
        #expect(TerminalScreen.characterKey(0xD800) == .other(0xD800))
        #expect(TerminalScreen.characterKey(0x110000) == .other(0x110000))
    }

    @Test func functionKeysHaveTheirNames() {
        let expected: [(Int32, Key)] = [
            (KEY_UP, .up), (KEY_DOWN, .down), (KEY_LEFT, .left), (KEY_RIGHT, .right),
            (KEY_PPAGE, .pageUp), (KEY_NPAGE, .pageDown), (KEY_HOME, .home), (KEY_END, .end),
            (KEY_ENTER, .enter), (KEY_BACKSPACE, .backspace), (KEY_DC, .delete), (KEY_IC, .insert),
            (KEY_BTAB, .backTab), (lectern_key_resize(), .resize),
        ]
        for (code, key) in expected { #expect(TerminalScreen.functionKey(code) == key, "code \(code)") }
    }

    @Test func fKeysAreNumberedFromOne() {
        #expect(TerminalScreen.functionKey(KEY_F0 + 1) == .function(1))
        #expect(TerminalScreen.functionKey(KEY_F0 + 12) == .function(12))
        #expect(TerminalScreen.functionKey(KEY_F0 + 24) == .function(24))
        #expect(TerminalScreen.functionKey(KEY_F0 + 2).name == "F2")
        // F0 and beyond F24 are not named.
        #expect(TerminalScreen.functionKey(KEY_F0) == .other(KEY_F0))
        #expect(TerminalScreen.functionKey(KEY_F0 + 25) == .other(KEY_F0 + 25))
        #expect(TerminalScreen.functionKey(KEY_MOUSE) == .other(KEY_MOUSE))
    }
}

import Shared
import Testing

/// The one sanitiser of text written to a terminal.
@Suite struct TerminalTextTests {
    @Test func controlsAreShownInCatVNotation() {
        #expect(TerminalText.sanitized("a\u{1B}[2Jb\u{07}c\u{7F}d\u{9B}e\u{85}f\u{0}g\r") == "a^[[2Jb^Gc^?dM-^[eM-^Ef^@g^M")
        #expect(TerminalText.sanitized("line one\nline\ttwo") == "line one\nline\ttwo")
        #expect(TerminalText.singleLine("title\nforged: line\tx") == "title forged: line x")
    }

    @Test func bidiOverridesAreShownAndMarksPass() {
        #expect(TerminalText.sanitized("cod\u{202E}fdp.exe") == "cod<U+202E>fdp.exe")
        #expect(TerminalText.sanitized("\u{2067}x\u{2069}") == "<U+2067>x<U+2069>")
        let arabic = "حبيبي\u{200F} — \u{200E}Lectern\u{061C}"
        #expect(TerminalText.sanitized(arabic) == arabic)
    }

    /// Every scalar up to U+3000: only controls and bidi overrides change, and what comes out
    /// holds nothing a terminal acts on.
    @Test func onlyControlsChange() {
        for value in UInt32(0)...0x3000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(Character(scalar))
            let shown = TerminalText.sanitized(text)
            let changes = (value < 0x20 && value != 0x0A && value != 0x09) || (0x7F...0x9F).contains(value)
                || TerminalText.isBidiControl(scalar)
            #expect((shown != text) == changes, "U+\(String(value, radix: 16))")
            #expect(!shown.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value) },
                    "U+\(String(value, radix: 16))")
        }
    }
}

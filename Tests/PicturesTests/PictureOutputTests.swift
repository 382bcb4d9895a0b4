import Pictures
import Testing

/// Which protocol and colours pictures use: the setting, the environment (which wins) and the
/// terminal's answers.
@Suite struct PictureOutputTests {
    @Test func theEnvironmentWinsOverTheSetting() {
        let output = PictureOutput.resolve(setting: .kitty, environment: ["LECTERN_IMAGES": "symbols", "TERM": "xterm-kitty"])
        #expect(output.protocol == .symbols)
        #expect(PictureOutput.resolve(setting: .auto, environment: ["LECTERN_IMAGES": "off"]).protocol == nil)
        #expect(PictureOutput.resolve(setting: .off, environment: [:]).protocol == nil)
        #expect(PictureOutput.resolve(setting: .sixel, environment: ["LECTERN_IMAGES": "nonsense"]).protocol == .sixel)
    }

    @Test func autoDetectsFromTheTerminal() {
        #expect(PictureOutput.resolve(setting: .auto, environment: ["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"]).protocol == .kitty)
        #expect(PictureOutput.resolve(setting: .auto, environment: ["TERM_PROGRAM": "iTerm.app"]).protocol == .iterm)
        #expect(PictureOutput.resolve(setting: .auto, environment: ["TERM": "foot"]).protocol == .sixel)
        #expect(PictureOutput.resolve(setting: .auto, environment: ["TERM": "xterm-256color"]).protocol == .symbols)
        // tmux: text cells, whatever the terminal outside can do.
        #expect(PictureOutput.resolve(setting: .auto, environment: ["TERM": "tmux-256color", "TMUX": "/tmp/x", "KITTY_WINDOW_ID": "1"]).protocol == .symbols)
        let sixel = TerminalAnswers(supportsSixel: true)
        #expect(PictureOutput.resolve(setting: .auto, environment: ["TERM": "xterm-256color"], answers: sixel).protocol == .sixel)
    }

    @Test func coloursFollowTheEnvironment() {
        #expect(PictureOutput.resolve(setting: .symbols, environment: ["NO_COLOR": "1", "COLORTERM": "truecolor"]).colors == .monochrome)
        #expect(PictureOutput.resolve(setting: .symbols, environment: ["NO_COLOR": "", "COLORTERM": "truecolor"]).colors == .truecolor)
        #expect(PictureOutput.resolve(setting: .symbols, environment: ["TERM": "xterm-256color"]).colors == .indexed256)
    }

    @Test func theTerminalsAnswersAreRead() throws {
        // xterm -ti vt340: sixel (4) among the device attributes; kitty: OK to the graphics query;
        // the cell size from CSI 16 t.
        let xterm = try #require(TerminalAnswers.parse("\u{1B}[?63;1;2;4;6;9;15;16;22;28c"))
        #expect(xterm.supportsSixel && !xterm.supportsKitty && xterm.cellSize == nil)
        let kitty = try #require(TerminalAnswers.parse("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[6;20;10t\u{1B}[?62;c"))
        #expect(kitty.supportsKitty && !kitty.supportsSixel && kitty.cellSize == CellSize(width: 10, height: 20))
        #expect(TerminalAnswers.parse("\u{1B}[6;20;10t") == nil, "not complete before the device attributes")
        let output = PictureOutput.resolve(setting: .sixel, environment: [:], answers: kitty)
        #expect(output.cell == CellSize(width: 10, height: 20))
    }
}

/// Pictures on the reader's screen inside tmux: pixels cannot get through, so symbols, and
/// a note when a pixel protocol was asked for.
@Suite struct PictureOutputTmuxTests {
    @Test func aForcedPixelProtocolFallsBackToSymbolsWithANote() {
        let output = PictureOutput.forScreen(setting: .auto, environment: ["TMUX": "/tmp/x,1,0", "LECTERN_IMAGES": "sixel"])
        #expect(output.protocol == .symbols)
        // The note says why and what to set: the variable that forced it, or no tmux.
        #expect(output.note == "Symbols, as tmux drops sixel: unset LECTERN_IMAGES or run outside tmux")
        // Asked for by the configuration, under a TERM naming tmux, the same; the note names the setting.
        let configured = PictureOutput.forScreen(setting: .kitty, environment: ["TERM": "tmux-256color"])
        #expect(configured.protocol == .symbols)
        #expect(configured.note == "Symbols, as tmux drops kitty: set images = \"auto\" or run outside tmux")
    }

    @Test func outsideTmuxOrForSymbolsNothingChanges() {
        let sixel = PictureOutput.forScreen(setting: .sixel, environment: ["TERM": "xterm-256color"])
        #expect(sixel.protocol == .sixel && sixel.note == nil)
        let symbols = PictureOutput.forScreen(setting: .symbols, environment: ["TMUX": "/tmp/x,1,0"])
        #expect(symbols.protocol == .symbols && symbols.note == nil)
        #expect(PictureOutput.forScreen(setting: .off, environment: ["TMUX": "/tmp/x,1,0"]).protocol == nil)
        // `lectern render --images sixel` keeps resolve's answer: a stream, not the pane.
        #expect(PictureOutput.resolve(setting: .sixel, environment: ["TMUX": "/tmp/x,1,0"]).protocol == .sixel)
    }
}

import Foundation
import Testing
import TestSupport

/// `lectern doctor` reports the pictures the reader will draw, decided by the reader's own
/// code: inside tmux that is symbols drawn by chafa, even when a pixel protocol is forced
/// (then it says what to set).
@Suite struct DoctorPicturesTests {
    let lectern = LecternProcess()

    func pictures(_ environment: [String: String]) throws -> String? {
        let result = try lectern.run(["doctor", "--json"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(result.json as? [String: [String: String]])
        return report["terminal"]?["pictures"]
    }

    @Test func insideTmuxTheReaderDrawsSymbols() throws {
        let tmux = ["TMUX": "/tmp/tmux-1000/default,4242,0", "TERM": "tmux-256color", "LECTERN_IMAGES": "auto"]
        #expect(try pictures(tmux) == "symbols via chafa (inside tmux, which drops kitty and sixel pictures)")
    }

    @Test func aForcedPixelProtocolInsideTmuxIsReportedAsTheSymbolsFallback() throws {
        let sixel = try pictures(["TMUX": "/tmp/tmux-1000/default,4242,0", "TERM": "tmux-256color", "LECTERN_IMAGES": "sixel"])
        #expect(sixel == "symbols via chafa (LECTERN_IMAGES=sixel, but tmux drops sixel: unset LECTERN_IMAGES or run outside tmux)")
        let kitty = try pictures(["TMUX": "/tmp/tmux-1000/default,4242,0", "TERM": "screen-256color", "LECTERN_IMAGES": "KITTY"])
        #expect(kitty == "symbols via chafa (LECTERN_IMAGES=kitty, but tmux drops kitty graphics: unset LECTERN_IMAGES or run outside tmux)")
    }

    @Test func picturesTurnedOffSaySo() throws {
        // Off wins everywhere, in tmux (should the test runner be in one) or not.
        let result = try pictures(["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "3", "LECTERN_IMAGES": "off"])
        #expect(result == "off (LECTERN_IMAGES=off: text placeholders)")
    }
}

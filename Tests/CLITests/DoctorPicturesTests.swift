import Foundation
import Testing
import TestSupport

/// `lectern doctor` reports the pictures the reader will draw, decided by the reader's own
/// code: inside tmux that is symbols, even when a pixel protocol is forced.
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
        #expect(try pictures(tmux) == "symbols (inside tmux)")
    }

    @Test func aForcedPixelProtocolInsideTmuxIsReportedAsTheSymbolsFallback() throws {
        let sixel = try pictures(["TMUX": "/tmp/tmux-1000/default,4242,0", "TERM": "tmux-256color", "LECTERN_IMAGES": "sixel"])
        #expect(sixel == "symbols (LECTERN_IMAGES=sixel, but tmux does not pass sixel pictures through)")
        let kitty = try pictures(["TMUX": "/tmp/tmux-1000/default,4242,0", "TERM": "screen-256color", "LECTERN_IMAGES": "KITTY"])
        #expect(kitty == "symbols (LECTERN_IMAGES=kitty, but tmux does not pass kitty graphics pictures through)")
    }

    @Test func picturesTurnedOffSaySo() throws {
        // Off wins everywhere, in tmux (should the test runner be in one) or not.
        let result = try pictures(["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "3", "LECTERN_IMAGES": "off"])
        #expect(result == "off (LECTERN_IMAGES=off: text placeholders)")
    }
}

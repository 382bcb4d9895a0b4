import Foundation
import Testing
import TestSupport

/// A pixel protocol forced inside tmux (which drops kitty and sixel sequences): the reader
/// draws the page as symbols and says why, never a blank page.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct TmuxPictureFallbackUITests {
    @Test(arguments: ["sixel", "kitty"])
    func aForcedProtocolInTmuxShowsThePageAsSymbolsAndSaysWhy(_ forced: String) throws {
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", try PictureUITests.comic()], home: try UIFixtures.home(),
                                   environment: ["LECTERN_IMAGES": forced], insideTmux: true)
        defer { tmux.close() }
        let screen = try tmux.waitUntil(colors: true, "the first page in symbols and the reason on the status line") { screen in
            PictureUITests.color(screen, 3, 28)?.isClose(to: PictureUITests.red) == true && screen.contains("tmux does not pass")
        }
        let name = forced == "kitty" ? "kitty graphics" : "sixel"
        #expect(screen.contains("Pictures as symbols: tmux does not pass \(name) through"))
    }
}

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
            PictureUITests.color(screen, 3, 28)?.isClose(to: PictureUITests.red) == true && screen.contains("tmux drops")
        }
        // Why, and what to set (the message fits an 80-column status line whole).
        #expect(screen.contains("Symbols, as tmux drops \(forced): unset LECTERN_IMAGES or run outside tmux"), "\(screen)")
    }

    /// `lectern doctor` run in a tmux pane (#29 item 17: it said "pictures: none known" there)
    /// names what the reader draws with and, for a forced protocol, why not and what to set.
    @Test func doctorInATmuxPaneNamesSymbolsViaChafa() throws {
        let tmux = try TmuxSession(width: 160, height: 50, arguments: ["doctor"], home: try UIFixtures.home(), insideTmux: true)
        defer { tmux.close() }
        let screen = try tmux.waitUntilSettled("doctor's report") { $0.contains("Library") && $0.contains("pictures:") }
        #expect(screen.contains("pictures: symbols via chafa (inside tmux, which drops kitty and sixel pictures)"), "\(screen)")
        let forced = try TmuxSession(width: 160, height: 50, arguments: ["doctor"], home: try UIFixtures.home(),
                                     environment: ["LECTERN_IMAGES": "sixel"], insideTmux: true)
        defer { forced.close() }
        let report = try forced.waitUntilSettled("doctor's report") { $0.contains("Library") && $0.contains("pictures:") }
        #expect(report.contains("pictures: symbols via chafa (LECTERN_IMAGES=sixel, but tmux drops sixel: unset LECTERN_IMAGES or run outside tmux)"),
                "\(report)")
    }
}

import Foundation
import Testing
import TestSupport

/// The bookshelf's cover panel in a real terminal (tmux, pictures as text cells), read back
/// with its colours: the selected publication's cover, changing with the selection, a
/// placeholder for a protected book, nothing left behind by popups and resizes.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct ShelfCoverUITests {
    static let red = TerminalCells.Color(255, 0, 0), green = TerminalCells.Color(0, 255, 0)

    /// A library of an EPUB with a green cover ("Green Book"), a comic whose first page is red
    /// ("Red Comic") and the LCP sample ("The Waste Land"), in that order by title.
    static func library() throws -> String {
        let folder = Fixtures.temporaryDirectory("ui-covers")
        try TestEPUBs.write(title: "Green Book", author: "Ann Author", cover: TestImages.solid(TestImages.green), to: folder + "/green.epub")
        try TestImages.comic(pages: [TestImages.solid(TestImages.red), TestImages.solid(TestImages.green)], title: "Red Comic",
                             to: folder + "/red.cbz")
        return try UIFixtures.home(importing: [folder + "/green.epub", folder + "/red.cbz",
                                               UIFixtures.sample("r2streamerjs-wasteland-otf-obf_LCP_dan.epub")])
    }

    static func color(_ screen: String, _ row: Int, _ column: Int) -> TerminalCells.Color? {
        TerminalCells(screen).cell(row, column)?.dominantColor
    }

    /// Whether the cell shows `color`.
    static func shows(_ screen: String, _ row: Int, _ column: Int, _ color: TerminalCells.Color) -> Bool {
        Self.color(screen, row, column)?.isClose(to: color) == true
    }

    @Test func theSelectedCoverIsDrawnBesideTheList() throws {
        let home = try Self.library()
        let cacheFolder = home + "/cache/lectern/covers"
        let tmux = try TmuxSession(width: 120, height: 30, arguments: [], home: home, environment: ["LECTERN_IMAGES": "symbols"])
        defer { tmux.close() }
        // 120 columns: a list of 80, a panel of 40 whose picture area starts at column 82,
        // row 2: a 200×300 cover takes 31×23 cells, centred from column 85.
        var screen = try tmux.waitUntil(colors: true, "the green cover of the first book") { screen in
            screen.contains("Green Book") && Self.shows(screen, 12, 100, Self.green) && Self.shows(screen, 3, 86, Self.green)
        }
        #expect(screen.contains("Ann Author"), "the author under the cover")
        #expect(Self.color(screen, 12, 83) == nil, "left of the cover: the panel's own background")
        #expect(Self.color(screen, 12, 118) == nil, "right of the cover: the panel's own background")
        try tmux.press("j")
        screen = try tmux.waitUntil(colors: true, "the red first page of the comic") { Self.shows($0, 12, 100, Self.red) }
        #expect(!Self.shows(screen, 3, 86, Self.green), "nothing left of the previous cover")
        // An unprotected book's cover is kept in the cache.
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: cacheFolder)) ?? []).count == 2)

        // The LCP book: a placeholder, no picture, nothing of it in the cache.
        try tmux.press("j")
        screen = try tmux.waitUntil(colors: true, "the placeholder of the protected book") { screen in
            screen.contains("Protected") && Self.color(screen, 12, 100) == nil
        }
        #expect(!Self.shows(screen, 20, 100, Self.red), "nothing left of the comic's page")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: cacheFolder)) ?? []).count == 2)

        // Back up: the comic's page again, then a popup over it, then a resize.
        try tmux.press("k")
        try tmux.waitUntil(colors: true, "the red page again") { Self.shows($0, 12, 100, Self.red) }
        try tmux.press("?")
        screen = try tmux.waitFor("Keys")
        try tmux.press("Escape")
        try tmux.waitUntil(colors: true, "the cover whole again after the help") { screen in
            !screen.contains("Keys") && Self.shows(screen, 12, 100, Self.red) && Self.shows(screen, 3, 86, Self.red)
                && Self.shows(screen, 23, 114, Self.red)
        }
        // 100 columns: a panel of 20 whose picture area is 17 columns wide from column 82:
        // the cover takes 17×13 cells (rows 2 to 14).
        try tmux.resize(width: 100, height: 30)
        screen = try tmux.waitUntil(colors: true, "the cover drawn for the new size") { screen in
            Self.shows(screen, 8, 90, Self.red) && Self.color(screen, 20, 90) == nil && screen.contains("Red Comic")
        }
        #expect(Self.color(screen, 22, 95) == nil, "no remains of the larger cover")
        #expect(Self.color(screen, 24, 85) == nil, "no remains of the larger cover")
    }

    @Test func aNarrowWindowOrPicturesOffHaveNoPanel() throws {
        let home = try Self.library()
        let off = try TmuxSession(width: 120, height: 30, arguments: [], home: home, environment: ["LECTERN_IMAGES": "off"])
        defer { off.close() }
        let screen = try off.waitFor("Green Book")
        #expect(!screen.contains("│"), "no panel without pictures")
        let narrow = try TmuxSession(width: 90, height: 30, arguments: [], home: home, environment: ["LECTERN_IMAGES": "symbols"])
        defer { narrow.close() }
        let narrowScreen = try narrow.waitFor("Green Book")
        #expect(!narrowScreen.contains("│"), "no panel in 90 columns")
    }
}

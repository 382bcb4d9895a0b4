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
        // 120 columns: a list of 90, a panel of 30 whose picture area is 27 columns from
        // column 92, row 2: a 200×300 cover takes 27×20 cells.
        var screen = try tmux.waitUntil(colors: true, "the green cover of the first book") { screen in
            screen.contains("Green Book") && Self.shows(screen, 12, 105, Self.green) && Self.shows(screen, 3, 93, Self.green)
                && screen.contains("Ann Author")
        }
        #expect(screen.contains("Ann Author"), "the author under the cover")
        #expect(Self.color(screen, 12, 91) == nil, "left of the cover: the panel's own background")
        #expect(Self.color(screen, 12, 119) == nil, "right of the cover: the panel's own background")
        #expect(Self.color(screen, 23, 105) == nil, "under the cover: its title")
        try tmux.press("j")
        screen = try tmux.waitUntil(colors: true, "the red first page of the comic") { Self.shows($0, 12, 105, Self.red) }
        #expect(!Self.shows(screen, 3, 93, Self.green), "nothing left of the previous cover")
        // An unprotected book's cover is kept in the cache.
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: cacheFolder)) ?? []).count == 2)

        // The LCP book: a placeholder, no picture, nothing of it in the cache.
        try tmux.press("j")
        screen = try tmux.waitUntil(colors: true, "the placeholder of the protected book") { screen in
            screen.contains("Protected") && Self.color(screen, 12, 105) == nil
        }
        #expect(!Self.shows(screen, 20, 100, Self.red), "nothing left of the comic's page")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: cacheFolder)) ?? []).count == 2)

        // Keys faster than covers load: the last selection's cover is the one shown (the comic),
        // then a popup over it, then resizes.
        try tmux.press("k", "k", "j", "j", "k")
        screen = try tmux.waitUntil(colors: true, "the red page again") { screen in
            Self.shows(screen, 12, 105, Self.red) && !screen.contains("Protected")
        }
        #expect(!Self.shows(screen, 3, 93, Self.green))
        try tmux.press("?")
        screen = try tmux.waitFor("Keys")
        try tmux.press("Escape")
        try tmux.waitUntil(colors: true, "the cover whole again after the help") { screen in
            !screen.contains("Keys") && Self.shows(screen, 12, 105, Self.red) && Self.shows(screen, 3, 93, Self.red)
                && Self.shows(screen, 20, 117, Self.red)
        }
        // 160×40: a panel of 40 from column 120; the cover takes 37×28 cells from column 122.
        try tmux.resize(width: 160, height: 40)
        screen = try tmux.waitUntil(colors: true, "the cover drawn for the new size") { screen in
            Self.shows(screen, 15, 140, Self.red) && Self.shows(screen, 28, 157, Self.red)
        }
        #expect(Self.color(screen, 15, 100) == nil, "no remains of the smaller cover in the list")
        #expect(Self.color(screen, 20, 117) == nil, "no remains of the smaller cover in the list")
        // 100 columns: no panel, and nothing left of the cover.
        try tmux.resize(width: 100, height: 30)
        screen = try tmux.waitUntil("the list alone") { screen in
            !screen.contains("│") && screen.split(separator: "\n").filter { $0.contains("Red Comic") }.count == 1
        }
        screen = try tmux.screen(colors: true)
        for (row, column) in [(10, 95), (15, 50), (20, 99), (27, 60)] {
            #expect(Self.color(screen, row, column) == nil, "no remains of the cover at \(row), \(column)")
        }
    }

    @Test func theCoversViewShowsEveryCover() throws {
        let tmux = try TmuxSession(width: 120, height: 30, arguments: [], home: try Self.library(), environment: ["LECTERN_IMAGES": "symbols"])
        defer { tmux.close() }
        try tmux.waitFor("Green Book")
        try tmux.press("v")
        // Tiles of 18 columns: covers of 13×10 cells from columns 2 and 20, row 2; the
        // protected book's placeholder in the third.
        var screen = try tmux.waitUntil(colors: true, "the green and red covers side by side") { screen in
            screen.contains("Covers") && Self.shows(screen, 6, 8, Self.green) && Self.shows(screen, 6, 26, Self.red)
                && screen.contains("Protected") && screen.contains("Red Comic") && screen.contains("The Waste Land")
        }
        #expect(screen.contains("Red Comic") && screen.contains("The Waste Land"), "the titles under the covers")
        #expect(Self.color(screen, 3, 44) == nil && Self.color(screen, 9, 40) == nil, "no picture for the protected book")
        try tmux.press("l")
        try tmux.press("v")
        // Back to the list: the comic (chosen in the grid) is selected and its cover in the panel.
        screen = try tmux.waitUntil(colors: true, "the list with the comic's cover") { screen in
            !screen.contains("Covers ·") && Self.shows(screen, 12, 105, Self.red)
        }
        #expect(Self.color(screen, 6, 8) == nil && Self.color(screen, 8, 26) == nil, "nothing left of the grid")
    }

    @Test func aNarrowWindowOrPicturesOffHaveNoPanel() throws {
        let home = try Self.library()
        let off = try TmuxSession(width: 120, height: 30, arguments: [], home: home, environment: ["LECTERN_IMAGES": "off"])
        defer { off.close() }
        let screen = try off.waitFor("Green Book")
        #expect(!screen.contains("│"), "no panel without pictures")
        let narrow = try TmuxSession(width: 100, height: 30, arguments: [], home: home, environment: ["LECTERN_IMAGES": "symbols"])
        defer { narrow.close() }
        let narrowScreen = try narrow.waitFor("Green Book")
        #expect(!narrowScreen.contains("│"), "no panel in 100 columns")
    }
}

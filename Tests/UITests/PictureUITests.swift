import Foundation
import Testing
import TestSupport

/// Comic and PDF pages drawn as pictures in the reader, in a real terminal (tmux), read back
/// with their colours: the page, its turn (in reading direction), popups and resizes leaving
/// nothing behind.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct PictureUITests {
    static let red = TerminalCells.Color(255, 0, 0), green = TerminalCells.Color(0, 255, 0)
    static let blue = TerminalCells.Color(0, 0, 255), yellow = TerminalCells.Color(255, 255, 0)

    /// A comic of a quadrant page, a blue page and a yellow page.
    static func comic(rightToLeft: Bool = false) throws -> String {
        let path = Fixtures.temporaryDirectory("ui-comic") + (rightToLeft ? "/manga.cbz" : "/comic.cbz")
        try TestImages.comic(pages: [TestImages.quadrants(), TestImages.solid(TestImages.blue), TestImages.solid(TestImages.yellow)],
                             rightToLeft: rightToLeft, title: rightToLeft ? "Test Manga" : "Test Comic", to: path)
        return path
    }

    static func start(_ path: String, width: Int = 80, height: Int = 24) throws -> TmuxSession {
        try TmuxSession(width: width, height: height, arguments: ["open", path], home: try UIFixtures.home(),
                        environment: ["LECTERN_IMAGES": "symbols"])
    }

    /// The colour most of the screen's picture cells show at `row`, `column`.
    static func color(_ screen: String, _ row: Int, _ column: Int) -> TerminalCells.Color? {
        TerminalCells(screen).cell(row, column)?.dominantColor
    }

    /// Waits until every cell listed shows its colour (the picture is written row by row: a
    /// screen read half-way has only its first rows).
    @discardableResult
    static func waitForColors(_ tmux: TmuxSession, _ cells: [(Int, Int, TerminalCells.Color)], _ what: String) throws -> String {
        try tmux.waitUntil(colors: true, what) { screen in
            cells.allSatisfy { color(screen, $0.0, $0.1)?.isClose(to: $0.2) == true }
        }
    }

    /// Waits until the cell at `row`, `column` shows `color`.
    @discardableResult
    static func waitForColor(_ tmux: TmuxSession, _ row: Int, _ column: Int, _ color: TerminalCells.Color, _ what: String) throws -> String {
        try tmux.waitUntil(colors: true, what) { screen in Self.color(screen, row, column)?.isClose(to: color) == true }
    }

    @Test func aComicPageIsDrawnAndTurns() throws {
        let tmux = try Self.start(try Self.comic())
        defer { tmux.close() }
        // 200×300 pixels in 80×23 cells of 10×20 pixels: 31 columns, centred from column 24.
        try tmux.waitFor("1/3")
        var screen = try Self.waitForColors(tmux, [(3, 28, Self.red), (3, 50, Self.green), (19, 28, Self.blue), (19, 50, Self.yellow)],
                                            "the four quadrants")
        #expect(Self.color(screen, 3, 5) == nil, "outside the picture: the window's own background")
        try tmux.press("Space")
        // The picture and the status line are written at different moments: both are waited for.
        screen = try tmux.waitUntil(colors: true, "the blue page after Space, 2/3 on the status line") { screen in
            Self.color(screen, 3, 28)?.isClose(to: Self.blue) == true && screen.contains("2/3")
        }
        #expect(screen.contains("2/3"))
        try tmux.press("Right")
        try Self.waitForColor(tmux, 10, 40, Self.yellow, "the yellow page after →")
        try tmux.press("Left")
        try Self.waitForColor(tmux, 10, 40, Self.blue, "the blue page after ←")
    }

    @Test func aRightToLeftComicTurnsWithTheLeftArrow() throws {
        let tmux = try Self.start(try Self.comic(rightToLeft: true))
        defer { tmux.close() }
        try Self.waitForColor(tmux, 3, 28, Self.red, "the first page")
        try tmux.press("Left")
        try Self.waitForColor(tmux, 10, 40, Self.blue, "the second page after ← in a right-to-left book")
        try tmux.press("Right")
        try Self.waitForColor(tmux, 3, 28, Self.red, "back to the first page after →")
    }

    @Test func popupsAndResizesLeaveNothingBehind() throws {
        let tmux = try Self.start(try Self.comic())
        defer { tmux.close() }
        try Self.waitForColor(tmux, 3, 28, Self.red, "the first page")
        try tmux.press("?")
        // The help is drawn, then the picture taken away: the state waited for is both (a help
        // left over the picture times out, with the screen).
        let help = try tmux.waitUntil("the help over a screen without the picture") { !$0.contains("█") && $0.contains("Keys") }
        #expect(!help.contains("█"), "the help is drawn over the picture")
        try tmux.press("Escape")
        // The picture is whole again: the cells under the help show it.
        try tmux.waitUntil(colors: true, "the page back after the help") { screen in
            !screen.contains("Keys") && Self.color(screen, 3, 28)?.isClose(to: Self.red) == true
                && Self.color(screen, 12, 40) != nil
        }
        try tmux.resize(width: 100, height: 30)
        // 200×300 in 100×29 cells: 39 columns, centred from column 30; nothing left at the old place.
        let screen = try tmux.waitUntil(colors: true, "the page drawn for the new size") { screen in
            Self.color(screen, 26, 33)?.isClose(to: Self.blue) == true && Self.color(screen, 26, 66)?.isClose(to: Self.yellow) == true
        }
        #expect(Self.color(screen, 3, 27) == nil, "no remains left of the picture")
        #expect(Self.color(screen, 3, 71) == nil, "no remains right of the picture")
        try tmux.press("q")
        try tmux.waitForExit()
    }

    @Test func fitWidthPansAndTheStatusSaysSo() throws {
        let tmux = try Self.start(try Self.comic())
        defer { tmux.close() }
        try Self.waitForColor(tmux, 3, 28, Self.red, "the first page")
        try tmux.press("z")
        // Fitted to 80 columns, the page is 80 cells wide: red on the left half at the top.
        var screen = try tmux.waitUntil(colors: true, "the page fitted to the width, said on the status line") { screen in
            Self.color(screen, 3, 10)?.isClose(to: Self.red) == true && Self.color(screen, 3, 70)?.isClose(to: Self.green) == true
                && screen.contains("fit width")
        }
        #expect(screen.contains("fit width"))
        try tmux.press("Space")
        screen = try tmux.waitUntil(colors: true, "panned down to the blue quadrant, still on 1/3") { screen in
            Self.color(screen, 20, 10)?.isClose(to: Self.blue) == true && screen.contains("1/3")
        }
        #expect(screen.contains("1/3"), "still the first page")
    }

    /// `i` on a comic page shows the whole page (it is the picture), from fit width too — not
    /// "No picture on this page" (#29 item 20).
    @Test func iOnAComicPageShowsTheWholePage() throws {
        let tmux = try Self.start(try Self.comic())
        defer { tmux.close() }
        try Self.waitForColor(tmux, 3, 28, Self.red, "the first page")
        try tmux.press("z")
        try tmux.waitUntil(colors: true, "the page fitted to the width") { screen in
            Self.color(screen, 3, 10)?.isClose(to: Self.red) == true && screen.contains("fit width")
        }
        try tmux.press("i")
        let screen = try tmux.waitUntil(colors: true, "the whole page again") { screen in
            screen.contains("The whole page") && Self.color(screen, 3, 28)?.isClose(to: Self.red) == true
                && Self.color(screen, 3, 10)?.isClose(to: Self.red) != true
        }
        #expect(!screen.contains("No picture on this page"))
    }

    @Test func aPDFPageIsShownAsAPictureWithP() throws {
        let pdf = Fixtures.sample("pdf/pypdf-pdflatex-4-pages.pdf")
        let tmux = try Self.start(pdf)
        defer { tmux.close() }
        try tmux.waitUntil("the first page's text") { $0.contains("Page 1 of 4") && $0.contains("p. 1/") }
        try tmux.press("P")
        // The page is white paper: a white cell in the middle, and the status says 1/4.
        let screen = try tmux.waitUntil(colors: true, "the page as a picture") { screen in
            screen.contains("1/4") && Self.color(screen, 2, 40).map { $0.r > 200 && $0.g > 200 && $0.b > 200 } == true
        }
        #expect(!screen.contains("p. 1/"))
        try tmux.press("Space")
        try tmux.waitFor("2/4")
        try tmux.press("P")
        try tmux.waitUntil("the second page's text") { $0.contains("Page text") && $0.contains("p. 1/") && !$0.contains("1/4") }
    }
}

/// Images of a reflowable book drawn in the text, in the rows the layout leaves for them.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct FigureUITests {
    static func book() throws -> String {
        let path = Fixtures.temporaryDirectory("ui-figure") + "/figure.epub"
        // 200×120 pixels: 20×6 cells of 10×20 pixels at natural size.
        try TestImages.epub(figure: TestImages.quadrants(width: 200, height: 120), to: path)
        return path
    }

    @Test func aFigureIsDrawnAboveItsCaptionAndScrollsWithTheText() throws {
        let tmux = try PictureUITests.start(try Self.book())
        defer { tmux.close() }
        var screen = try tmux.waitFor("[image: Four colours]")
        let lines = screen.components(separatedBy: "\n")
        let caption = try #require(lines.firstIndex { $0.contains("[image: Four colours]") })
        let before = try #require(lines.firstIndex { $0.contains("Text before the figure.") })
        // Six rows of picture between the paragraph and the caption; the text is not drawn through it.
        #expect(caption - before >= 7, "\(before) → \(caption)")
        // The figure is 20 columns wide, centred in the text column.
        let top = caption - 6
        screen = try tmux.waitUntil(colors: true, "the figure's colours") { screen in
            PictureUITests.color(screen, top + 1, 33)?.isClose(to: PictureUITests.red) == true
                && PictureUITests.color(screen, top + 1, 46)?.isClose(to: PictureUITests.green) == true
                && PictureUITests.color(screen, top + 4, 33)?.isClose(to: PictureUITests.blue) == true
                && PictureUITests.color(screen, top + 4, 46)?.isClose(to: PictureUITests.yellow) == true
        }
        // Two lines down: the figure moves up with the text, its top rows cut, nothing left below.
        try tmux.press("j")
        try tmux.press("j")
        screen = try tmux.waitUntil(colors: true, "the figure two rows higher") { screen in
            screen.components(separatedBy: "\n")[caption - 2].contains("[image: Four colours]")
                && PictureUITests.color(screen, top + 2, 46)?.isClose(to: PictureUITests.yellow) == true
        }
        #expect(!Self.showsPictureColours(screen, rows: (caption - 2)..<(caption + 3)), "no remains under the figure")
        try tmux.press("?")
        try tmux.waitFor("Keys")
        try tmux.press("Escape")
        try tmux.waitUntil(colors: true, "the figure back after the help") { screen in
            !screen.contains("Keys") && PictureUITests.color(screen, top + 2, 46)?.isClose(to: PictureUITests.yellow) == true
        }
    }

    /// Whether any cell of `rows` has one of the figure's colours as its background.
    static func showsPictureColours(_ screen: String, rows: Range<Int>) -> Bool {
        let cells = TerminalCells(screen)
        let colours = [PictureUITests.red, PictureUITests.green, PictureUITests.blue, PictureUITests.yellow]
        return rows.contains { row in
            (cells.rows.indices.contains(row) ? cells.rows[row] : []).contains { cell in
                cell.background.map { background in colours.contains { background.isClose(to: $0, tolerance: 30) } } ?? false
            }
        }
    }

    @Test func aFigureOpensAloneAsLargeAsTheWindow() throws {
        let tmux = try PictureUITests.start(try Self.book())
        defer { tmux.close() }
        let screen = try tmux.waitFor("[image: Four colours]")
        let caption = try #require(screen.components(separatedBy: "\n").firstIndex { $0.contains("[image: Four colours]") })
        try tmux.waitUntil(colors: true, "the figure in the text") { PictureUITests.color($0, caption - 5, 33)?.isClose(to: PictureUITests.red) == true }
        try tmux.press("i")
        // 200×120 pixels fitted to 80×23 cells: 77 columns by 23 rows.
        try tmux.waitUntil(colors: true, "the figure alone") { screen in
            screen.contains("Four colours") && screen.contains("esc close")
                && PictureUITests.color(screen, 3, 10)?.isClose(to: PictureUITests.red) == true
                && PictureUITests.color(screen, 20, 70)?.isClose(to: PictureUITests.yellow) == true
        }
        try tmux.press("Escape")
        let back = try tmux.waitUntil(colors: true, "the text again") { screen in
            screen.contains("Text before the figure.") && PictureUITests.color(screen, caption - 5, 33)?.isClose(to: PictureUITests.red) == true
        }
        #expect(PictureUITests.color(back, 20, 70) == nil || !(PictureUITests.color(back, 20, 70)!.isClose(to: PictureUITests.yellow)),
                "nothing of the large picture left")
    }

    @Test func imagesOffKeepsTheTextPlaceholder() throws {
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", try Self.book()], home: try UIFixtures.home(),
                                   environment: ["LECTERN_IMAGES": "off"])
        defer { tmux.close() }
        let screen = try tmux.waitFor("[image: Four colours]")
        let lines = screen.components(separatedBy: "\n")
        let caption = try #require(lines.firstIndex { $0.contains("[image: Four colours]") })
        let before = try #require(lines.firstIndex { $0.contains("Text before the figure.") })
        #expect(caption - before <= 2)
    }
}

/// Two pages side by side (`D`), in reading order.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct SpreadUITests {
    static func comic(rightToLeft: Bool) throws -> String {
        let path = Fixtures.temporaryDirectory("ui-spread") + "/spread.cbz"
        try TestImages.comic(pages: [TestImages.solid(TestImages.green), TestImages.solid(TestImages.red), TestImages.solid(TestImages.blue),
                                     TestImages.solid(TestImages.yellow)], rightToLeft: rightToLeft, to: path)
        return path
    }

    @Test(arguments: [false, true]) func aSpreadShowsTwoPagesInReadingOrder(rightToLeft: Bool) throws {
        let tmux = try PictureUITests.start(try Self.comic(rightToLeft: rightToLeft), width: 100, height: 24)
        defer { tmux.close() }
        try PictureUITests.waitForColor(tmux, 10, 50, PictureUITests.green, "the cover")
        try tmux.press("D")
        try tmux.press("Space")
        // Pages 2 and 3: red then blue from left to right, or blue then red in a right-to-left book.
        let (left, right) = rightToLeft ? (PictureUITests.blue, PictureUITests.red) : (PictureUITests.red, PictureUITests.blue)
        let screen = try tmux.waitUntil(colors: true, "pages 2 and 3 side by side") { screen in
            screen.contains("2–3/4") && PictureUITests.color(screen, 10, 40)?.isClose(to: left) == true
                && PictureUITests.color(screen, 10, 60)?.isClose(to: right) == true
        }
        #expect(!screen.contains("Loading"))
        try tmux.press("Space")
        try tmux.waitUntil(colors: true, "page 4 alone") { screen in
            screen.contains("4/4") && PictureUITests.color(screen, 10, 50)?.isClose(to: PictureUITests.yellow) == true
        }
    }
}

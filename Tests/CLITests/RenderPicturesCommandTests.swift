import Foundation
import Testing
import TestSupport

/// `lectern render --images`: comic and PDF pages drawn as the reader draws them, decoded back
/// from the output and compared with the source image by region colour.
@Suite struct RenderPicturesCommandTests {
    static let red = TerminalCells.Color(255, 0, 0), green = TerminalCells.Color(0, 255, 0)
    static let blue = TerminalCells.Color(0, 0, 255), yellow = TerminalCells.Color(255, 255, 0)

    /// A two-page comic: four colour quadrants, then solid blue.
    static func comic() throws -> String {
        let path = Fixtures.temporaryDirectory("picture-comic") + "/quadrants.cbz"
        try TestImages.comic(pages: [TestImages.quadrants(), TestImages.solid(TestImages.blue)], to: path)
        return path
    }

    @Test func symbolsPutEachColourOfAComicPageInItsRegion() throws {
        let comic = try Self.comic()
        let lectern = LecternProcess()
        for colors in ["truecolor", ""] {
            let result = try lectern.run(["render", comic, "--images", "symbols", "--width", "40", "--height", "30", "--page", "1"],
                                         environment: ["COLORTERM": colors, "NO_COLOR": ""])
            #expect(result.status == 0, "\(result.stderr)")
            let cells = TerminalCells(result.stdout)
            // 200×300 pixels in 40×30 cells of 10×20 pixels: 40 columns by 30 rows.
            #expect(cells.rows.count == 30, "\(cells.rows.count) rows")
            #expect(cells.rows.first?.count == 40)
            for (row, column, color) in [(4, 6, Self.red), (4, 33, Self.green), (25, 6, Self.blue), (25, 33, Self.yellow)] {
                let seen = try #require(cells.cell(row, column)?.dominantColor, "\(row),\(column)")
                #expect(seen.isClose(to: color), "COLORTERM=\(colors): cell \(row),\(column) is \(seen), expected \(color)")
            }
            #expect(result.stdout.contains("38;2;") == (colors == "truecolor"))
        }
        let second = try lectern.run(["render", comic, "--images", "symbols", "--width", "40", "--height", "30", "--page", "2"], environment: ["NO_COLOR": ""])
        #expect(second.status == 0)
        let cells = TerminalCells(second.stdout)
        #expect(try #require(cells.cell(15, 10)?.dominantColor).isClose(to: Self.blue))
    }

    @Test func noColorDrawsShapesWithoutColour() throws {
        let result = try LecternProcess().run(["render", try Self.comic(), "--images", "symbols", "--width", "20", "--height", "10", "--page", "1"],
                                              environment: ["NO_COLOR": "1"])
        #expect(result.status == 0)
        #expect(!result.stdout.contains("38;") && !result.stdout.contains("48;"))
        #expect(TerminalCells(result.stdout).rows.count == 10)
    }

    @Test func everyPageInOrderWithoutPage() throws {
        let result = try LecternProcess().run(["render", try Self.comic(), "--images", "symbols", "--width", "20", "--height", "10"], environment: ["NO_COLOR": ""])
        #expect(result.status == 0)
        let cells = TerminalCells(result.stdout)
        #expect(cells.rows.count == 20)
        #expect(try #require(cells.cell(15, 3)?.dominantColor).isClose(to: Self.blue))
    }

    @Test func sixelOutputOfAComicPageDecodesToThePage() throws {
        let result = try LecternProcess().run(["render", try Self.comic(), "--images", "sixel", "--width", "40", "--height", "30", "--page", "1"])
        #expect(result.status == 0)
        let image = try #require(SixelImage(result.stdout))
        #expect(image.width >= 150 && image.height >= 250, "\(image.width)×\(image.height)")
        #expect(image.color(x: image.width / 5, y: image.height / 5)?.isClose(to: Self.red) == true)
        #expect(image.color(x: image.width * 4 / 5, y: image.height * 4 / 5)?.isClose(to: Self.yellow) == true)
    }

    @Test func aPDFPageIsDrawnAsAPicture() throws {
        let pdf = Fixtures.sample("pdf/pypdf-pdflatex-4-pages.pdf")
        let result = try LecternProcess().run(["render", pdf, "--images", "symbols", "--width", "60", "--height", "25", "--page", "1"],
                                              environment: ["COLORTERM": "truecolor", "NO_COLOR": ""])
        #expect(result.status == 0, "\(result.stderr)")
        let cells = TerminalCells(result.stdout)
        #expect(cells.rows.count == 25)
        // A white page with dark text: the margins white, some cells darker (the lines).
        let colors = cells.rows.flatMap { $0 }.compactMap(\.dominantColor)
        #expect(try #require(cells.cell(0, 5)?.dominantColor).isClose(to: .init(255, 255, 255), tolerance: 10))
        #expect(colors.contains { $0.r < 235 }, "some text is drawn")
        let past = try LecternProcess().run(["render", pdf, "--images", "symbols", "--page", "9"])
        #expect(past.status == 1 && past.stderr.contains("there is no page 9"))
    }

    @Test func theImagesOfAnEPUBAreDrawnInTheText() throws {
        let path = Fixtures.temporaryDirectory("render-figure") + "/figure.epub"
        try TestImages.epub(figure: TestImages.quadrants(width: 200, height: 120), paragraphsAfter: 2, to: path)
        let result = try LecternProcess().run(["render", path, "--images", "symbols", "--width", "60"], environment: ["NO_COLOR": ""])
        #expect(result.status == 0, "\(result.stderr)")
        let cells = TerminalCells(result.stdout)
        let lines = cells.rows.map { String($0.map(\.character)) }
        let before = try #require(lines.firstIndex { $0.contains("Text before the figure.") })
        let caption = try #require(lines.firstIndex { $0.contains("[image: Four colours]") })
        // 200×120 pixels: 20 columns by 6 rows, centred in 60 columns (from column 20).
        #expect(caption - before == 7, "\(before) → \(caption)")
        #expect(try #require(cells.cell(before + 2, 23)?.dominantColor).isClose(to: Self.red))
        #expect(try #require(cells.cell(before + 2, 36)?.dominantColor).isClose(to: Self.green))
        #expect(try #require(cells.cell(before + 5, 23)?.dominantColor).isClose(to: Self.blue))
        #expect(try #require(cells.cell(before + 5, 36)?.dominantColor).isClose(to: Self.yellow))
        // Without --images: the placeholder only, as before.
        let plain = try LecternProcess().run(["render", path, "--width", "60"])
        #expect(!plain.stdout.contains("\u{1B}") && plain.stdout.contains("[image: Four colours]"))
    }

    @Test func hostileComicPagesEndInAClearErrorAndTheOthersAreDrawn() throws {
        let folder = Fixtures.temporaryDirectory("hostile-comic")
        let path = folder + "/hostile.cbz"
        let good = TestImages.solid(TestImages.green, width: 40, height: 60)
        try ZipBuilder.write([
            .init("1.png", good, compression: .stored),
            .init("2.png", Data(), compression: .stored),
            .init("3.png", good.prefix(30), compression: .stored),
            .init("4.png", TestImages.pngClaiming(width: 30000, height: 30000), compression: .stored),
            .init("5.jpg", Data("<html>not a picture</html>".utf8), compression: .stored),
            .init("6.jpg", good, compression: .stored),
        ], to: path)
        let result = try LecternProcess().run(["render", path, "--images", "symbols", "--width", "20", "--height", "10"], environment: ["NO_COLOR": ""])
        #expect(result.status == 1)
        #expect(result.stderr.contains("page 2: the image is empty"))
        #expect(result.stderr.contains("page 4: the image is too large to show (30000×30000 pixels)"))
        #expect(result.stderr.contains("page 5: not an image format Lectern can show"))
        let cells = TerminalCells(result.stdout)
        // Pages 1 and 6 (a PNG named .jpg) drawn: 10 rows each.
        #expect(cells.rows.count == 20)
        #expect(try #require(cells.cell(5, 3)?.dominantColor).isClose(to: Self.green))
        #expect(try #require(cells.rows.last?[3].dominantColor).isClose(to: Self.green))
    }
}

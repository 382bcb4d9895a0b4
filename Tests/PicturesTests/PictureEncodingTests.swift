import Foundation
import Pictures
import Shared
import Testing
import TestSupport

/// Pictures encoded for the terminal put each colour where it belongs, in every protocol.
@Suite struct PictureEncodingTests {
    static func quadrants() throws -> Bitmap {
        try PictureDecoder.decode([UInt8](TestImages.quadrants(width: 200, height: 300)), maxWidth: 2000, maxHeight: 2000)
    }

    static let red = TerminalCells.Color(255, 0, 0), green = TerminalCells.Color(0, 255, 0)
    static let blue = TerminalCells.Color(0, 0, 255), yellow = TerminalCells.Color(255, 255, 0)

    @Test func symbolsPutEachColourInItsRegion() throws {
        let picture = try PictureEncoder.encode(try Self.quadrants(), columns: 20, rows: 15, protocol: .symbols)
        #expect(picture.rowsText.count == 15)
        let cells = TerminalCells(picture.printed)
        #expect(cells.rows.count == 15)
        #expect(cells.rows.allSatisfy { $0.count == 20 }, "\(cells.rows.map(\.count))")
        for (row, column, color) in [(2, 3, Self.red), (2, 16, Self.green), (12, 3, Self.blue), (12, 16, Self.yellow)] {
            let seen = try #require(cells.cell(row, column)?.dominantColor, "cell \(row),\(column)")
            #expect(seen.isClose(to: color), "cell \(row),\(column) is \(seen), expected \(color)")
        }
    }

    @Test func the256ColourPaletteKeepsTheRegions() throws {
        let picture = try PictureEncoder.encode(try Self.quadrants(), columns: 20, rows: 15, protocol: .symbols, colors: .indexed256)
        let cells = TerminalCells(picture.printed)
        let seen = try #require(cells.cell(12, 16)?.dominantColor)
        #expect(seen.isClose(to: Self.yellow))
        #expect(!picture.printed.contains("38;2;") && !picture.printed.contains("48;2;"))
    }

    @Test func monochromeHasNoColour() throws {
        let picture = try PictureEncoder.encode(try Self.quadrants(), columns: 20, rows: 15, protocol: .symbols, colors: .monochrome)
        #expect(!picture.printed.contains("38;") && !picture.printed.contains("48;"))
        #expect(picture.rowsText.count == 15)
    }

    @Test func kittyOutputDecodesToThePicture() throws {
        let picture = try PictureEncoder.encode(try Self.quadrants(), columns: 20, rows: 15, protocol: .kitty, cell: CellSize(width: 10, height: 20))
        let text = try #require(picture.rowsText.first)
        var pixels: [UInt8] = [], keys: [String: String] = [:]
        for command in text.components(separatedBy: "\u{1B}_G").dropFirst() {
            let body = try #require(command.components(separatedBy: "\u{1B}\\").first)
            let parts = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            for pair in parts[0].split(separator: ",") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                if kv.count == 2, keys[String(kv[0])] == nil { keys[String(kv[0])] = String(kv[1]) }
            }
            // Each chunk is base64 on its own.
            if parts.count == 2, !parts[1].isEmpty {
                guard let chunk = Data(base64Encoded: String(parts[1])) else { Issue.record("a chunk is not base64"); return }
                pixels += chunk
            }
        }
        let width = try #require(keys["s"].flatMap(Int.init)), height = try #require(keys["v"].flatMap(Int.init))
        let format = keys["f"] ?? "32"
        let channels = format == "24" ? 3 : 4
        #expect(pixels.count == width * height * channels)
        #expect(abs(width * 3 - height * 2) <= 6, "proportions kept: \(width)×\(height)")
        func color(_ x: Int, _ y: Int) -> TerminalCells.Color {
            let offset = (y * width + x) * channels
            return .init(Int(pixels[offset]), Int(pixels[offset + 1]), Int(pixels[offset + 2]))
        }
        #expect(color(width / 5, height / 5).isClose(to: Self.red))
        #expect(color(width * 4 / 5, height / 5).isClose(to: Self.green))
        #expect(color(width / 5, height * 4 / 5).isClose(to: Self.blue))
        #expect(color(width * 4 / 5, height * 4 / 5).isClose(to: Self.yellow))
        #expect(keys["c"] == "20" && keys["r"] == "15")
    }

    @Test func sixelOutputDecodesToThePicture() throws {
        let picture = try PictureEncoder.encode(try Self.quadrants(), columns: 20, rows: 15, protocol: .sixel, cell: CellSize(width: 10, height: 20))
        let text = try #require(picture.rowsText.first)
        #expect(text.hasPrefix("\u{1B}P"))
        let image = try #require(SixelImage(text))
        let (width, height) = (image.width, image.height)
        #expect(width <= 200 && height <= 306 && width >= 100 && abs(width * 3 - height * 2) <= 18, "\(width)×\(height)")
        func color(_ x: Int, _ y: Int) -> TerminalCells.Color { image.color(x: x, y: y) ?? .init(-999, -999, -999) }
        #expect(color(width / 5, height / 5).isClose(to: Self.red))
        #expect(color(width * 4 / 5, height / 5).isClose(to: Self.green))
        #expect(color(width / 5, height * 4 / 5).isClose(to: Self.blue))
        #expect(color(width * 4 / 5, height * 4 / 5).isClose(to: Self.yellow))
    }

    @Test func itermOutputCarriesAnImage() throws {
        let picture = try PictureEncoder.encode(try Self.quadrants(), columns: 20, rows: 15, protocol: .iterm)
        let text = try #require(picture.rowsText.first)
        #expect(text.hasPrefix("\u{1B}]1337;File=") && text.contains("inline=1"))
    }

    @Test func theGeometryKeepsProportions() {
        // 200×300 pixels in 80×24 cells of 10×20: fits by height, 24 rows of 16 columns.
        let page = PictureGeometry.cells(pixelWidth: 200, pixelHeight: 300, columns: 80, rows: 24, cell: .typical)
        #expect(page.rows == 24 && page.columns == 32)
        let width = PictureGeometry.cells(pixelWidth: 200, pixelHeight: 300, columns: 80, rows: 24, cell: .typical, fit: .width)
        #expect(width.columns == 80 && width.rows == 60)
        let natural = PictureGeometry.cells(pixelWidth: 200, pixelHeight: 300, columns: 80, rows: 24, cell: .typical, maxScale: 1)
        #expect(natural.columns == 20 && natural.rows == 15)
    }
}

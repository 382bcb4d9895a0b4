import Foundation
import Testing
import TestSupport

/// Whether the programs of the real-terminal tests are installed (`make test` installs them).
enum X11Tools {
    static var isAvailable: Bool {
        ["/usr/bin/xterm", "/usr/bin/Xvfb", "/usr/bin/import", "/usr/bin/convert"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// The reader in a real terminal that draws sixel pictures: xterm (`-ti vt340`) on a virtual
/// X display (Xvfb), photographed with ImageMagick's `import`, the page compared with its
/// source image by region colour.
@Suite(.enabled(if: X11Tools.isAvailable, "xterm, Xvfb or ImageMagick is not installed"))
struct XtermSixelTests {
    /// A screenshot's pixels.
    struct Screenshot {
        let width: Int, height: Int
        let pixels: [UInt8]
        func color(_ x: Int, _ y: Int) -> TerminalCells.Color {
            let offset = (y * width + x) * 3
            return .init(Int(pixels[offset]), Int(pixels[offset + 1]), Int(pixels[offset + 2]))
        }
    }

    static func screenshot(display: String, folder: String) -> Screenshot? {
        let png = folder + "/shot.png", raw = folder + "/shot.rgb"
        guard (try? Spawn.run(["import", "-display", display, "-window", "root", png], captureOutput: false))?.status == 0,
              let size = try? Spawn.run(["identify", "-format", "%w %h", png], captureOutput: true),
              (try? Spawn.run(["convert", png, "-depth", "8", "rgb:" + raw], captureOutput: false))?.status == 0,
              let data = FileManager.default.contents(atPath: raw) else { return nil }
        let numbers = String(decoding: size.output, as: UTF8.self).split(separator: " ").compactMap { Int($0) }
        guard numbers.count == 2, data.count == numbers[0] * numbers[1] * 3 else { return nil }
        return Screenshot(width: numbers[0], height: numbers[1], pixels: [UInt8](data))
    }

    /// The bounding box of the pixels close to `color`.
    static func box(of color: TerminalCells.Color, in shot: Screenshot) -> (x: Range<Int>, y: Range<Int>)? {
        var minX = Int.max, maxX = -1, minY = Int.max, maxY = -1
        for y in stride(from: 0, to: shot.height, by: 2) {
            for x in stride(from: 0, to: shot.width, by: 2) where shot.color(x, y).isClose(to: color, tolerance: 20) {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        return maxX < 0 ? nil : (minX..<(maxX + 1), minY..<(maxY + 1))
    }

    @Test func aComicPageDrawnInSixelMatchesItsSource() throws {
        let folder = Fixtures.temporaryDirectory("xterm-sixel")
        let comic = folder + "/comic.cbz"
        try TestImages.comic(pages: [TestImages.quadrants(), TestImages.solid(TestImages.blue)], to: comic)
        let home = try UIFixtures.home()
        // A display number of our own: the lock file says whether another server holds it.
        var number = 300 + Int(getpid() % 400)
        while FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock") { number += 1 }
        let display = ":\(number)"
        let server = try Spawn.start(["Xvfb", display, "-screen", "0", "1024x768x24", "-nolisten", "tcp"])
        defer { Spawn.stop(server) }
        let deadline = Date().addingTimeInterval(60)
        while Self.screenshot(display: display, folder: folder) == nil {
            guard Date() < deadline else { Issue.record("Xvfb did not start"); return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let terminal = try Spawn.start([
            "env", "DISPLAY=\(display)", "xterm", "-ti", "vt340", "-xrm", "XTerm*numColorRegisters: 256", "-geometry", "80x24+0+0",
            "-fa", "DejaVu Sans Mono", "-fs", "10", "-e",
            "env", "-u", "NO_COLOR", "-u", "TMUX", "LECTERN_IMAGES=sixel", "HOME=\(home)", "XDG_DATA_HOME=\(home)/data",
            "XDG_CONFIG_HOME=\(home)/config", "XDG_CACHE_HOME=\(home)/cache", LecternProcess.executable, "open", comic,
        ])
        defer { Spawn.stop(terminal) }
        // Wait for the whole page: the sixel picture is written band by band from the top, so a
        // shot may hold its upper quadrants only. Whole is: the four colours on a shot that the
        // next shot repeats.
        let colors = [PictureUITests.red, PictureUITests.green, PictureUITests.blue, PictureUITests.yellow]
        var last: Screenshot?
        while Date() < deadline {
            if let shot = Self.screenshot(display: display, folder: folder) {
                let whole = colors.allSatisfy { Self.box(of: $0, in: shot) != nil }
                let repeated = shot.pixels == last?.pixels
                last = shot
                if whole && repeated { break }
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        let shot = try #require(last)
        let red = try #require(Self.box(of: PictureUITests.red, in: shot), "no red region on the screen")
        let green = try #require(Self.box(of: PictureUITests.green, in: shot))
        let blue = try #require(Self.box(of: PictureUITests.blue, in: shot))
        let yellow = try #require(Self.box(of: PictureUITests.yellow, in: shot))
        // Green right of red, blue below it, yellow diagonally; the four of one size, the page
        // twice as tall as wide (as the 200×300 source, within a few pixels).
        #expect(abs(green.x.lowerBound - red.x.upperBound) <= 4 && abs(green.y.lowerBound - red.y.lowerBound) <= 4)
        #expect(abs(blue.y.lowerBound - red.y.upperBound) <= 4 && abs(blue.x.lowerBound - red.x.lowerBound) <= 4)
        #expect(abs(yellow.x.lowerBound - blue.x.upperBound) <= 4 && abs(yellow.y.lowerBound - green.y.upperBound) <= 4)
        let width = green.x.upperBound - red.x.lowerBound, height = blue.y.upperBound - red.y.lowerBound
        #expect(abs(width * 3 - height * 2) <= 30, "\(width)×\(height)")
    }
}

import Foundation
import Pictures
import Shared
import Testing
import TestSupport

/// Images decoded in memory: formats recognised by content, scaled while decoding, and hostile
/// files ending in a clear error.
@Suite struct PictureDecodingTests {
    static func bytes(_ data: Data) -> [UInt8] { [UInt8](data) }

    /// Converts the PNG `data` with ImageMagick to `format` (jpg, gif, webp, bmp).
    static func converted(_ data: Data, to format: String, extra: [String] = []) throws -> [UInt8] {
        let folder = Fixtures.temporaryDirectory("picture-convert")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try data.write(to: URL(fileURLWithPath: folder + "/in.png"))
        try ZipBuilder.run("/usr/bin/convert", [folder + "/in.png"] + extra + [folder + "/out." + format])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/out." + format)))
    }

    @Test func theHeaderGivesFormatAndSizeByContent() throws {
        let png = Self.bytes(TestImages.quadrants(width: 120, height: 80))
        #expect(PictureHeader.read(png) == PictureHeader(format: .png, width: 120, height: 80))
        for (format, expected) in [("jpg", PictureHeader.Format.jpeg), ("gif", .gif), ("webp", .webp), ("bmp", .bmp)] {
            let encoded = try Self.converted(TestImages.quadrants(width: 120, height: 80), to: format)
            #expect(PictureHeader.read(encoded) == PictureHeader(format: expected, width: 120, height: 80), "\(format)")
        }
        #expect(PictureHeader.read(Array("<html>not an image</html>".utf8)) == nil)
    }

    @Test func aPNGDecodesToItsPixels() throws {
        let bitmap = try PictureDecoder.decode(Self.bytes(TestImages.quadrants(width: 200, height: 300)), maxWidth: 1000, maxHeight: 1000)
        #expect(bitmap.width == 200 && bitmap.height == 300)
        #expect(bitmap.rgba(x: 10, y: 10) == (255, 0, 0, 255))
        #expect(bitmap.rgba(x: 190, y: 10) == (0, 255, 0, 255))
        #expect(bitmap.rgba(x: 10, y: 290) == (0, 0, 255, 255))
        #expect(bitmap.rgba(x: 190, y: 290) == (255, 255, 0, 255))
    }

    @Test func everyCommonFormatDecodes() throws {
        for format in ["jpg", "gif", "webp", "bmp"] {
            let encoded = try Self.converted(TestImages.quadrants(width: 200, height: 300), to: format)
            let bitmap = try PictureDecoder.decode(encoded, maxWidth: 1000, maxHeight: 1000)
            #expect(bitmap.width == 200 && bitmap.height == 300, "\(format)")
            let (r, g, b, _) = bitmap.rgba(x: 20, y: 20)
            #expect(r > 200 && g < 60 && b < 60, "\(format): top-left is red")
        }
    }

    @Test func aLargePictureIsScaledWhileDecoding() throws {
        let bitmap = try PictureDecoder.decode(Self.bytes(TestImages.quadrants(width: 800, height: 1200)), maxWidth: 100, maxHeight: 100)
        #expect(bitmap.height == 100 && (66...67).contains(bitmap.width))
        #expect(bitmap.rgba(x: 60, y: 90).0 == 255 && bitmap.rgba(x: 60, y: 90).1 == 255, "bottom-right still yellow")
    }

    @Test func anImageNamedWronglyIsRecognisedByItsContent() throws {
        // A PNG inside a file called .jpg: the decoder never sees the name; its bytes decide.
        let bitmap = try PictureDecoder.decode(Self.bytes(TestImages.solid(TestImages.blue)), maxWidth: 50, maxHeight: 50)
        #expect(bitmap.rgba(x: 5, y: 5) == (0, 0, 255, 255))
    }

    @Test func theFirstFrameOfAnAnimatedGIFIsShown() throws {
        let folder = Fixtures.temporaryDirectory("animated-gif")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try TestImages.solid(TestImages.red, width: 40, height: 40).write(to: URL(fileURLWithPath: folder + "/1.png"))
        try TestImages.solid(TestImages.blue, width: 40, height: 40).write(to: URL(fileURLWithPath: folder + "/2.png"))
        try ZipBuilder.run("/usr/bin/convert", ["-delay", "10", folder + "/1.png", folder + "/2.png", "-loop", "0", folder + "/a.gif"])
        let gif = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/a.gif")))
        let bitmap = try PictureDecoder.decode(gif, maxWidth: 100, maxHeight: 100)
        let (r, _, b, _) = bitmap.rgba(x: 20, y: 20)
        #expect(r > 200 && b < 60)
    }

    @Test func hostileImagesEndInAClearError() throws {
        #expect(throws: PictureError.empty) { try PictureDecoder.decode([], maxWidth: 10, maxHeight: 10) }
        #expect(throws: PictureError.unsupportedFormat) { try PictureDecoder.decode(Array("%PDF-1.4 nope".utf8), maxWidth: 10, maxHeight: 10) }
        #expect(throws: PictureError.tooLarge(width: 30000, height: 30000)) {
            try PictureDecoder.decode(Self.bytes(TestImages.pngClaiming(width: 30000, height: 30000)), maxWidth: 10, maxHeight: 10)
        }
        #expect(throws: PictureError.tooLarge(width: 20000, height: 20000)) {
            try PictureDecoder.decode(Self.bytes(TestImages.pngClaiming(width: 20000, height: 20000)), maxWidth: 10, maxHeight: 10)
        }
        // A JPEG whose frame header claims 60000×60000: refused from its header.
        var jpeg = try Self.converted(TestImages.solid(TestImages.red, width: 64, height: 64), to: "jpg")
        let frame = try #require(jpeg.indices.dropLast().first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg[frame + 5] = 0xEA; jpeg[frame + 6] = 0x60; jpeg[frame + 7] = 0xEA; jpeg[frame + 8] = 0x60
        #expect(throws: PictureError.tooLarge(width: 60000, height: 60000)) { try PictureDecoder.decode(jpeg, maxWidth: 10, maxHeight: 10) }
        // Truncated: either the rows decoded so far or a "damaged" error; never a crash.
        let png = Self.bytes(TestImages.quadrants(width: 200, height: 300))
        for cut in [20, 40, png.count / 2] {
            do {
                let bitmap = try PictureDecoder.decode(Array(png.prefix(cut)), maxWidth: 100, maxHeight: 100)
                #expect(bitmap.width > 0)
            } catch {
                // Cut inside the header: not recognisable as an image at all.
                guard error == .unsupportedFormat || { if case .damaged = error { true } else { false } }() else {
                    Issue.record("cut at \(cut): \(error)"); continue
                }
            }
        }
        #expect(throws: PictureError.fileTooLarge(2_000_000)) {
            try PictureDecoder.decode([UInt8](repeating: 0x89, count: 2_000_000), maxWidth: 10, maxHeight: 10, limits: PictureLimits(maxFileBytes: 1_000_000))
        }
    }

    @Test func theShimMatchesTheInstalledHeaders() throws {
        let shim = Fixtures.repositoryRoot + "/Sources/CLecternPictures/shim.h"
        let script = """
            compiler=$(command -v cc || command -v clang || command -v gcc) || { echo "no C compiler"; exit 2; }
            "$compiler" -fsyntax-only -DLECTERN_PICTURES_ABI_CHECK $(pkg-config --cflags chafa gdk-pixbuf-2.0) -x c "$0"
            """
        let output = try ZipBuilder.run("/bin/sh", ["-c", script, shim])
        #expect(!output.contains("error"), "\(output)")
    }
}

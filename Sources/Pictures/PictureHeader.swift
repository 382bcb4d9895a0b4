/// The format and the pixel size an image file declares, read from its first bytes before any
/// decoder sees it: a file that claims 30000×30000 pixels is refused before anything is
/// allocated for it, and a file is recognised by its content, not by its name.
public struct PictureHeader: Sendable, Equatable {
    public enum Format: String, Sendable {
        case png, jpeg, gif, webp, avif, bmp
    }

    public let format: Format
    /// Nil when the format does not say it in a fixed place (AVIF): the decoder's own size
    /// report is checked instead.
    public let width: Int?
    public let height: Int?

    public init(format: Format, width: Int?, height: Int?) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// Reads the header of `bytes`; nil when it is no format Lectern decodes.
    public static func read(_ bytes: some RandomAccessCollection<UInt8>) -> PictureHeader? {
        let data = Array(bytes.prefix(1 << 16))
        func u16be(_ at: Int) -> Int? { at + 2 <= data.count ? Int(data[at]) << 8 | Int(data[at + 1]) : nil }
        func u16le(_ at: Int) -> Int? { at + 2 <= data.count ? Int(data[at + 1]) << 8 | Int(data[at]) : nil }
        func u24le(_ at: Int) -> Int? { at + 3 <= data.count ? Int(data[at + 2]) << 16 | Int(data[at + 1]) << 8 | Int(data[at]) : nil }
        func u32be(_ at: Int) -> Int? { at + 4 <= data.count ? Int(data[at]) << 24 | Int(data[at + 1]) << 16 | Int(data[at + 2]) << 8 | Int(data[at + 3]) : nil }
        func u32le(_ at: Int) -> Int? { at + 4 <= data.count ? Int(Int32(bitPattern: UInt32(data[at + 3]) << 24 | UInt32(data[at + 2]) << 16 | UInt32(data[at + 1]) << 8 | UInt32(data[at]))) : nil }
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            offset + prefix.count <= data.count && Array(data[offset..<offset + prefix.count]) == prefix
        }

        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            // The IHDR chunk comes first.
            guard starts(Array("IHDR".utf8), at: 12), let width = u32be(16), let height = u32be(20) else { return nil }
            return PictureHeader(format: .png, width: width, height: height)
        }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) {
            guard let width = u16le(6), let height = u16le(8) else { return nil }
            return PictureHeader(format: .gif, width: width, height: height)
        }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) {
            if starts(Array("VP8X".utf8), at: 12), let width = u24le(24), let height = u24le(27) {
                return PictureHeader(format: .webp, width: width + 1, height: height + 1)
            }
            if starts(Array("VP8 ".utf8), at: 12), let width = u16le(26), let height = u16le(28) {
                return PictureHeader(format: .webp, width: width & 0x3FFF, height: height & 0x3FFF)
            }
            if starts(Array("VP8L".utf8), at: 12), data.count >= 25 {
                let bits = UInt32(data[21]) | UInt32(data[22]) << 8 | UInt32(data[23]) << 16 | UInt32(data[24]) << 24
                return PictureHeader(format: .webp, width: Int(bits & 0x3FFF) + 1, height: Int((bits >> 14) & 0x3FFF) + 1)
            }
            return nil
        }
        if starts([0x42, 0x4D]), data.count >= 26, let width = u32le(18), let height = u32le(22) {
            return PictureHeader(format: .bmp, width: abs(width), height: abs(height))
        }
        if starts(Array("ftyp".utf8), at: 4), starts(Array("avif".utf8), at: 8) || starts(Array("avis".utf8), at: 8) {
            return PictureHeader(format: .avif, width: nil, height: nil)
        }
        if starts([0xFF, 0xD8, 0xFF]) {
            // Walk the markers to the first start-of-frame, which holds the size.
            var offset = 2
            while offset + 4 <= data.count {
                guard data[offset] == 0xFF else { return nil }
                let marker = data[offset + 1]
                if marker == 0xFF { offset += 1; continue }
                if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue }
                guard let length = u16be(offset + 2), length >= 2 else { return nil }
                let isFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
                if isFrame {
                    guard let height = u16be(offset + 5), let width = u16be(offset + 7) else { return nil }
                    return PictureHeader(format: .jpeg, width: width, height: height)
                }
                offset += 2 + length
            }
            // The frame header lies beyond what was read (huge metadata first): the decoder's
            // size report is checked instead.
            return PictureHeader(format: .jpeg, width: nil, height: nil)
        }
        return nil
    }
}

import Foundation
import Zlib

/// The pixels of a PNG as a browser writes a screenshot: 8-bit greyscale, RGB or RGBA,
/// not interlaced (others are refused). Enough to tell a blank page from one with text.
struct PNGImage {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let width: Int, height: Int
    /// Channels per pixel (1 grey, 3 RGB, 4 RGBA).
    let channels: Int
    /// Row after row, `channels` bytes a pixel, filters undone.
    let pixels: [UInt8]

    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.count > 8, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else {
            throw Failure(description: "not a PNG")
        }
        func number(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        var offset = 8, header: [UInt8] = [], compressed: [UInt8] = []
        while offset + 8 <= bytes.count {
            let length = number(offset)
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            guard offset + 12 + length <= bytes.count else { throw Failure(description: "truncated \(type) chunk") }
            let body = bytes[offset + 8..<offset + 8 + length]
            if type == "IHDR" { header = Array(body) }
            if type == "IDAT" { compressed += body }
            if type == "IEND" { break }
            offset += 12 + length
        }
        guard header.count == 13 else { throw Failure(description: "no IHDR") }
        width = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
        height = header[4..<8].reduce(0) { $0 << 8 | Int($1) }
        let depth = header[8], colour = header[9], interlace = header[12]
        guard depth == 8, interlace == 0, let channels = [0: 1, 2: 3, 6: 4][Int(colour)] else {
            throw Failure(description: "unsupported PNG: depth \(depth), colour type \(colour), interlace \(interlace)")
        }
        self.channels = channels
        let raw = try Inflater.inflate(compressed, wrapping: .zlib, maxOutput: height * (width * channels + 1))
        let stride = width * channels
        guard raw.count == height * (stride + 1) else { throw Failure(description: "\(raw.count) bytes of image data") }
        var pixels = [UInt8](repeating: 0, count: height * stride)
        for row in 0..<height {
            let filter = raw[row * (stride + 1)]
            for column in 0..<stride {
                let x = Int(raw[row * (stride + 1) + 1 + column])
                let a = column >= channels ? Int(pixels[row * stride + column - channels]) : 0
                let b = row > 0 ? Int(pixels[(row - 1) * stride + column]) : 0
                let c = row > 0 && column >= channels ? Int(pixels[(row - 1) * stride + column - channels]) : 0
                let predicted: Int
                switch filter {
                case 0: predicted = 0
                case 1: predicted = a
                case 2: predicted = b
                case 3: predicted = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predicted = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                default: throw Failure(description: "filter \(filter) in row \(row)")
                }
                pixels[row * stride + column] = UInt8((x + predicted) & 0xFF)
            }
        }
        self.pixels = pixels
    }

    /// The share of pixels (0…1) whose colour differs from the most common one by more than
    /// `threshold` in some channel: 0 for a blank image, a few percent for a page of text.
    func shareUnlikeBackground(threshold: Int = 48) -> Double {
        var counts: [[UInt8]: Int] = [:]
        for index in stride(from: 0, to: pixels.count, by: channels) {
            counts[Array(pixels[index..<index + min(channels, 3)]), default: 0] += 1
        }
        guard let background = counts.max(by: { $0.value < $1.value })?.key else { return 0 }
        var unlike = 0
        for (colour, count) in counts where zip(colour, background).contains(where: { abs(Int($0) - Int($1)) > threshold }) {
            unlike += count
        }
        return Double(unlike) / Double(max(1, width * height))
    }
}

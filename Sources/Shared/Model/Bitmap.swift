/// Decoded pixels in memory: what an image decoder or a PDF page renderer hands to whatever
/// draws them. Decrypted content lives only here, never in a file.
public struct Bitmap: Sendable, Equatable {
    /// How the bytes of one pixel are laid out.
    public enum Layout: Sendable, Equatable {
        /// Red, green, blue, alpha; colours not multiplied by alpha (gdk-pixbuf).
        case rgba
        /// Red, green, blue; no alpha.
        case rgb
        /// Blue, green, red, alpha, premultiplied: cairo's ARGB32 on little-endian machines.
        case bgraPremultiplied

        /// Bytes per pixel.
        public var bytesPerPixel: Int { self == .rgb ? 3 : 4 }
    }

    public let width: Int
    public let height: Int
    /// Bytes from one row to the next (at least `width × bytesPerPixel`).
    public let stride: Int
    public let layout: Layout
    public let pixels: [UInt8]

    public init(width: Int, height: Int, stride: Int, layout: Layout, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && stride >= width * layout.bytesPerPixel && pixels.count >= stride * (height - 1) + width * layout.bytesPerPixel)
        self.width = width
        self.height = height
        self.stride = stride
        self.layout = layout
        self.pixels = pixels
    }

    /// The colour at (x, y) as red, green, blue, alpha, not premultiplied.
    public func rgba(x: Int, y: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        let offset = y * stride + x * layout.bytesPerPixel
        switch layout {
        case .rgba: return (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3])
        case .rgb: return (pixels[offset], pixels[offset + 1], pixels[offset + 2], 255)
        case .bgraPremultiplied:
            let alpha = pixels[offset + 3]
            func unmultiply(_ value: UInt8) -> UInt8 { alpha == 0 ? 0 : UInt8(min(255, Int(value) * 255 / Int(alpha))) }
            return (unmultiply(pixels[offset + 2]), unmultiply(pixels[offset + 1]), unmultiply(pixels[offset]), alpha)
        }
    }
}

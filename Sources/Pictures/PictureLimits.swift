/// What Lectern agrees to decode for one picture. Pages of comics are a few megapixels;
/// anything far beyond is a decompression bomb or a mistake, refused before decoding.
public struct PictureLimits: Sendable {
    /// The most pixels an image may declare (width × height).
    public var maxDeclaredPixels: Int
    /// The longest side an image may declare.
    public var maxSide: Int
    /// The most bytes of an encoded image read.
    public var maxFileBytes: Int

    public init(maxDeclaredPixels: Int = 40_000_000, maxSide: Int = 32_767, maxFileBytes: Int = 64 << 20) {
        self.maxDeclaredPixels = maxDeclaredPixels
        self.maxSide = maxSide
        self.maxFileBytes = maxFileBytes
    }

    public static let standard = PictureLimits()

    func check(width: Int, height: Int) throws(PictureError) {
        guard width > 0, height > 0 else { throw .damaged("no pixels") }
        guard width <= maxSide, height <= maxSide, width * height <= maxDeclaredPixels else {
            throw .tooLarge(width: width, height: height)
        }
    }
}

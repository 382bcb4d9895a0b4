/// Why a picture cannot be drawn. Shown to a person in place of the picture.
public enum PictureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No bytes at all.
    case empty
    /// The bytes are not an image format Lectern decodes (by content, whatever the name says).
    case unsupportedFormat
    /// The image claims more pixels than Lectern decodes (a decompression bomb, or a scan far
    /// beyond any screen).
    case tooLarge(width: Int, height: Int)
    /// The encoded file is larger than Lectern reads for one picture.
    case fileTooLarge(Int)
    /// The decoder failed: truncated or corrupt data.
    case damaged(String)
    /// gdk-pixbuf or libchafa is not installed.
    case libraryUnavailable

    public var description: String {
        switch self {
        case .empty: "the image is empty"
        case .unsupportedFormat: "not an image format Lectern can show"
        case .tooLarge(let width, let height): "the image is too large to show (\(width)×\(height) pixels)"
        case .fileTooLarge(let bytes): "the image file is too large to show (\(bytes) bytes)"
        case .damaged(let reason): "damaged image (\(reason))"
        case .libraryUnavailable: "pictures need gdk-pixbuf and libchafa (libgdk-pixbuf-2.0-0, libchafa0), which are not installed"
        }
    }
}

import CLecternPictures
import Shared

/// Decodes an image held in memory (JPEG, PNG, GIF's first frame, WebP, AVIF, BMP — whatever
/// gdk-pixbuf has a loader for) into a ``Bitmap``, scaled down while decoding to what will be
/// drawn. The bytes never touch the disk: they may be a decrypted page.
///
/// gdk-pixbuf, because poppler-glib already brings it onto every desktop, it decodes from a
/// memory stream with one API for every format, and its JPEG loader scales while decoding
/// (a 3000-pixel page drawn on 120 columns costs an eighth of the memory).
public enum PictureDecoder {
    /// Decodes `bytes`, scaled (proportions kept) to fit `maxWidth` × `maxHeight` pixels when
    /// larger; never scaled up.
    ///
    /// - Throws: ``PictureError`` for an empty, unknown, oversized, truncated or corrupt image,
    ///   or when gdk-pixbuf is missing.
    public static func decode(_ bytes: [UInt8], maxWidth: Int, maxHeight: Int, limits: PictureLimits = .standard) throws(PictureError) -> Bitmap {
        guard !bytes.isEmpty else { throw .empty }
        guard bytes.count <= limits.maxFileBytes else { throw .fileTooLarge(bytes.count) }
        guard let header = PictureHeader.read(bytes) else { throw .unsupportedFormat }
        if let width = header.width, let height = header.height { try limits.check(width: width, height: height) }
        guard PicturesLibrary.isAvailable else { throw .libraryUnavailable }

        let api = lectern_pictures()!
        guard let loader = api.pointee.loader_new!() else { throw .libraryUnavailable }
        defer { api.pointee.g_object_unref!(UnsafeMutableRawPointer(loader)) }
        let sizing = SizeRequest(maxWidth: max(1, maxWidth), maxHeight: max(1, maxHeight), limits: limits)
        let context = Unmanaged.passRetained(sizing)
        defer { context.release() }
        lectern_pixbuf_loader_on_size_prepared(loader, { loader, width, height, context in
            guard let loader, let context else { return }
            let request = Unmanaged<SizeRequest>.fromOpaque(context).takeUnretainedValue()
            request.declared = (Int(width), Int(height))
            let target = request.target(width: Int(width), height: Int(height))
            // An oversized image is asked for at 1×1: the decoder then allocates nothing big
            // before the write loop stops feeding it.
            lectern_pictures()!.pointee.loader_set_size!(loader, Int32(target.width), Int32(target.height))
        }, context.toOpaque())

        var error: UnsafeMutablePointer<lectern_pictures_gerror>?
        var written = true
        // Fed in pieces, so that an oversized declaration stops the feeding early.
        var offset = 0
        while offset < bytes.count, written, !sizing.isRefused {
            let end = min(bytes.count, offset + (1 << 16))
            written = bytes.withUnsafeBufferPointer { buffer in
                api.pointee.loader_write!(loader, buffer.baseAddress! + offset, end - offset, &error) != 0
            }
            offset = end
        }
        var closeError: UnsafeMutablePointer<lectern_pictures_gerror>?
        // Closing fails for a truncated file, which still gives the rows decoded so far:
        // shown, as browsers do.
        _ = api.pointee.loader_close!(loader, &closeError)
        defer {
            if let error { api.pointee.g_error_free!(error) }
            if let closeError { api.pointee.g_error_free!(closeError) }
        }
        if sizing.isRefused, let declared = sizing.declared { throw .tooLarge(width: declared.width, height: declared.height) }
        guard written else { throw .damaged(message(error) ?? "cannot be decoded") }
        guard let pixbuf = api.pointee.loader_get_pixbuf!(loader) else {
            throw .damaged(message(closeError) ?? "cannot be decoded")
        }
        return try bitmap(of: pixbuf)
    }

    private static func bitmap(of pixbuf: OpaquePointer) throws(PictureError) -> Bitmap {
        let api = lectern_pictures()!.pointee
        let width = Int(api.pixbuf_get_width!(pixbuf)), height = Int(api.pixbuf_get_height!(pixbuf))
        let stride = Int(api.pixbuf_get_rowstride!(pixbuf)), channels = Int(api.pixbuf_get_n_channels!(pixbuf))
        guard width > 0, height > 0, api.pixbuf_get_bits_per_sample!(pixbuf) == 8, channels == 3 || channels == 4,
              stride >= width * channels, let pixels = api.pixbuf_read_pixels!(pixbuf) else {
            throw .damaged("unusual pixel format")
        }
        // The last row is not padded to the stride.
        let count = stride * (height - 1) + width * channels
        return Bitmap(width: width, height: height, stride: stride, layout: channels == 4 ? .rgba : .rgb,
                      pixels: Array(UnsafeBufferPointer(start: pixels, count: count)))
    }

    private static func message(_ error: UnsafeMutablePointer<lectern_pictures_gerror>?) -> String? {
        guard let error, let text = error.pointee.message else { return nil }
        return String(cString: text)
    }
}

/// What the `size-prepared` handler reads and records, for one decoding.
private final class SizeRequest: @unchecked Sendable {
    // Used by one decoding on one thread: the handler runs inside `loader_write`.
    let maxWidth: Int
    let maxHeight: Int
    let limits: PictureLimits
    var declared: (width: Int, height: Int)?
    var isRefused = false

    init(maxWidth: Int, maxHeight: Int, limits: PictureLimits) {
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
        self.limits = limits
    }

    func target(width: Int, height: Int) -> (width: Int, height: Int) {
        do throws(PictureError) {
            try limits.check(width: width, height: height)
        } catch {
            isRefused = true
            return (1, 1)
        }
        let scale = min(1, min(Double(maxWidth) / Double(width), Double(maxHeight) / Double(height)))
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }
}

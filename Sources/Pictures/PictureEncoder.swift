import CLecternPictures
import Shared

/// Encodes a ``Bitmap`` for the terminal with libchafa: symbol selection and colour matching
/// for text cells, and chafa's sixel, kitty and iTerm2 encoders for pixels.
public enum PictureEncoder {
    /// `bitmap` as `columns` × `rows` cells (see ``PictureGeometry`` for keeping proportions),
    /// drawn with `protocol`.
    public static func encode(_ bitmap: Bitmap, columns: Int, rows: Int, protocol: PictureProtocol,
                              colors: PictureColors = .truecolor, cell: CellSize = .typical) throws(PictureError) -> TerminalPicture {
        guard PicturesLibrary.isAvailable else { throw .libraryUnavailable }
        let api = lectern_pictures()!.pointee
        let columns = max(1, columns), rows = max(1, rows)

        guard let config = api.config_new!() else { throw .libraryUnavailable }
        defer { api.config_unref!(config) }
        api.config_set_geometry!(config, Int32(columns), Int32(rows))
        api.config_set_cell_geometry!(config, Int32(cell.width), Int32(cell.height))
        let pixelMode: Int32 = switch `protocol` {
        case .symbols: Int32(LECTERN_CHAFA_PIXEL_MODE_SYMBOLS)
        case .sixel: Int32(LECTERN_CHAFA_PIXEL_MODE_SIXELS)
        case .kitty: Int32(LECTERN_CHAFA_PIXEL_MODE_KITTY)
        case .iterm: Int32(LECTERN_CHAFA_PIXEL_MODE_ITERM2)
        }
        api.config_set_pixel_mode!(config, pixelMode)
        // The colour settings are about text cells; pixels are always sent in full colour.
        let colors = `protocol` == .symbols ? colors : .truecolor
        let canvasMode: Int32 = switch colors {
        case .truecolor: Int32(LECTERN_CHAFA_CANVAS_MODE_TRUECOLOR)
        case .indexed256: Int32(LECTERN_CHAFA_CANVAS_MODE_INDEXED_256)
        case .monochrome: Int32(LECTERN_CHAFA_CANVAS_MODE_FGBG)
        }
        api.config_set_canvas_mode!(config, canvasMode)
        // No repeat (REP) or cursor-skip sequences: the rows are placed one by one between
        // what ncurses draws, and must paint every cell they cover.
        api.config_set_optimizations!(config, Int32(LECTERN_CHAFA_OPTIMIZATION_REUSE_ATTRIBUTES))
        if colors == .monochrome {
            api.config_set_dither_mode!(config, Int32(LECTERN_CHAFA_DITHER_MODE_ORDERED))
        }
        guard let symbols = api.symbol_map_new!() else { throw .libraryUnavailable }
        defer { api.symbol_map_unref!(symbols) }
        // Blocks, halves and quadrants: in every monospace font, and sharp enough for a page.
        let tags = LECTERN_CHAFA_SYMBOL_TAG_SPACE | LECTERN_CHAFA_SYMBOL_TAG_SOLID
            | LECTERN_CHAFA_SYMBOL_TAG_BLOCK | LECTERN_CHAFA_SYMBOL_TAG_HHALF
            | LECTERN_CHAFA_SYMBOL_TAG_VHALF | LECTERN_CHAFA_SYMBOL_TAG_QUAD
        api.symbol_map_add_by_tags!(symbols, Int32(tags))
        api.config_set_symbol_map!(config, symbols)

        guard let canvas = api.canvas_new!(config) else { throw .libraryUnavailable }
        defer { api.canvas_unref!(canvas) }
        let pixelType: Int32 = switch bitmap.layout {
        case .rgba: Int32(LECTERN_CHAFA_PIXEL_RGBA8_UNASSOCIATED)
        case .rgb: Int32(LECTERN_CHAFA_PIXEL_RGB8)
        case .bgraPremultiplied: Int32(LECTERN_CHAFA_PIXEL_BGRA8_PREMULTIPLIED)
        }
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            api.canvas_draw_all_pixels!(canvas, pixelType, pixels.baseAddress, Int32(bitmap.width), Int32(bitmap.height), Int32(bitmap.stride))
        }
        let database = api.term_db_get_default!()
        // The fallback description holds every sequence chafa knows; which protocol to use was
        // decided before (``PictureProtocolDetection``), not by chafa.
        guard let terminal = api.term_db_get_fallback_info!(database) else { throw .libraryUnavailable }
        defer { api.term_info_unref!(terminal) }
        guard let printed = api.canvas_print!(canvas, terminal) else { throw .damaged("cannot be encoded") }
        let text = String(cString: printed.pointee.str)
        _ = api.g_string_free!(printed, 1)

        let reset = "\u{1B}[0m"
        if `protocol` == .symbols {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) + reset }
            while lines.count > rows, lines.last == reset { lines.removeLast() }
            return TerminalPicture(protocol: .symbols, columns: columns, rows: rows, rowsText: lines)
        }
        return TerminalPicture(protocol: `protocol`, columns: columns, rows: rows, rowsText: [text])
    }
}

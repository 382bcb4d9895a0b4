import CLecternDjVu
import FoundationEssentials
import Synchronization

/// A DjVu document (a single page or a bundled or indirect multi-page document) read through
/// djvulibre: its pages drawn, their hidden text, the outline and the metadata annotations.
///
/// Thread-safe: every call into djvulibre happens under one lock for the whole process —
/// the documents' s-expressions share minilisp's one garbage collector.
public final class DjVuDocument: Sendable {
    /// A document read from memory may not be larger than this.
    public static let maxInMemorySize: UInt64 = 1 << 30
    /// More pages than this is a hostile directory, not a book (a DIRM chunk can claim 65,535).
    public static let maxPageCount = 20_000
    /// A page whose INFO chunk claims more pixels than this is not decoded: djvulibre would
    /// allocate its masks at full size (an INFO chunk can claim 65,535 × 65,535).
    public static let maxPagePixels = 200_000_000
    /// The largest picture of a page drawn, in pixels.
    public static let maxRenderedPixels = 40_000_000

    /// The number of pages, read when the document was opened.
    public let pageCount: Int

    /// Whether djvulibre could be loaded: it is opened on first use (dlopen) rather than linked,
    /// so that a `lectern` that never opens a DjVu document does not map it and libjpeg.
    public static let isAvailable: Bool = lectern_djvu_load() != 0

    static let lock = Mutex(())
    private let state: Mutex<Handles?>

    /// Opens the DjVu file at `path` (an indirect document finds its pages beside it).
    public convenience init(path: String) throws(DjVuError) {
        try self.init(path: path, data: nil)
    }

    /// Opens a DjVu document held in memory (single page or bundled; an indirect one's pages
    /// are other files and cannot be read this way).
    public convenience init(data: Data) throws(DjVuError) {
        guard UInt64(data.count) <= Self.maxInMemorySize else { throw .tooLarge(size: UInt64(data.count), limit: Self.maxInMemorySize) }
        guard !data.isEmpty else { throw .damaged("empty file") }
        try self.init(path: nil, data: data)
    }

    private init(path: String?, data: Data?) throws(DjVuError) {
        guard Self.isAvailable else { throw .libraryUnavailable }
        let opened: Result<(Handles, Int), DjVuError> = Self.lock.withLock { _ in
            guard let context = lectern_djvu_context_create("lectern") else { return .failure(.damaged("djvulibre cannot start")) }
            let bytes = data.map { [UInt8]($0) }
            let handles = Handles(context: context, document: nil, bytes: bytes)
            var pump = lectern_djvu_pump_state()
            let document: OpaquePointer? = handles.withPump(&pump) { pump in
                lectern_djvu_open(context, path ?? "", pump)
            }
            guard let document else {
                lectern_djvu_context_release(context)
                return .failure(.damaged(Self.message(pump)))
            }
            handles.document = document
            if data != nil, lectern_djvu_document_is_indirect(document) != 0 {
                handles.release()
                return .failure(.indirect)
            }
            let count = Int(lectern_djvu_document_get_pagenum(document))
            if count <= 0 || count > Self.maxPageCount {
                handles.release()
                return .failure(count <= 0 ? .noPages : .tooManyPages(count))
            }
            // A truncated bundle keeps its directory: its last page is what goes missing.
            var width: Int32 = 0, height: Int32 = 0, dpi: Int32 = 0
            let lastPage = handles.withPump(&pump) { pump in
                lectern_djvu_page_info(context, document, Int32(count - 1), &width, &height, &dpi, pump)
            }
            if lastPage == 0 {
                handles.release()
                let reason = pump.error.0 == 0 ? "the file is cut short" : Self.message(pump)
                return .failure(.damaged("page \(count) of \(count) cannot be read (\(reason))"))
            }
            // djvulibre copied the bytes into its own data pool when the stream was written.
            handles.bytes = nil
            return .success((handles, count))
        }
        switch opened {
        case .success(let (handles, count)):
            pageCount = count
            state = Mutex(handles)
        case .failure(let error):
            throw error
        }
    }

    deinit { close() }

    /// Releases the document; later calls return nothing.
    public func close() {
        Self.lock.withLock { _ in
            state.withLock { handles in
                handles?.release()
                handles = nil
            }
        }
    }

    /// Runs `body` with the open document under the process-wide lock; nil once closed.
    func withDocument<T: Sendable>(_ body: (Handles) -> T?) -> T? {
        Self.lock.withLock { _ in
            state.withLock { handles in handles.flatMap(body) }
        }
    }

    /// The size of page `index` (0-based) in pixels and its resolution; nil when it cannot be read.
    public func pageInfo(_ index: Int) -> (width: Int, height: Int, dpi: Int)? {
        guard index >= 0, index < pageCount else { return nil }
        return withDocument { handles -> PageInfo? in
            var width: Int32 = 0, height: Int32 = 0, dpi: Int32 = 0
            var pump = lectern_djvu_pump_state()
            let ok = handles.withPump(&pump) { pump in
                lectern_djvu_page_info(handles.context, handles.document, Int32(index), &width, &height, &dpi, pump)
            }
            guard ok != 0, width > 0, height > 0 else { return nil }
            return PageInfo(width: Int(width), height: Int(height), dpi: dpi > 0 ? Int(dpi) : 300)
        }.map { ($0.width, $0.height, $0.dpi) }
    }

    /// The size of page `index` in points (1/72 inch); nil when it cannot be read.
    public func pageSize(_ index: Int) -> (width: Double, height: Double)? {
        guard let info = pageInfo(index) else { return nil }
        return (Double(info.width) * 72 / Double(info.dpi), Double(info.height) * 72 / Double(info.dpi))
    }

    /// Page `index` drawn on white, scaled to fit `maxWidth` × `maxHeight` pixels with its
    /// proportions kept (never larger than the page); nil when the page does not exist, claims
    /// more than ``maxPagePixels``, or cannot be decoded. The pixels stay in memory.
    public func renderPage(_ index: Int, maxWidth: Int, maxHeight: Int) -> DjVuPageImage? {
        guard maxWidth > 0, maxHeight > 0, let info = pageInfo(index), info.width * info.height <= Self.maxPagePixels else { return nil }
        var scale = min(1, min(Double(maxWidth) / Double(info.width), Double(maxHeight) / Double(info.height)))
        let area = Double(info.width * info.height) * scale * scale
        if area > Double(Self.maxRenderedPixels) { scale *= (Double(Self.maxRenderedPixels) / area).squareRoot() }
        let width = max(1, Int((Double(info.width) * scale).rounded(.down)))
        let height = max(1, Int((Double(info.height) * scale).rounded(.down)))
        let stride = width * 3
        return withDocument { handles -> DjVuPageImage? in
            var pixels = [UInt8](repeating: 0, count: stride * height)
            var pump = lectern_djvu_pump_state()
            let ok = pixels.withUnsafeMutableBufferPointer { buffer in
                handles.withPump(&pump) { pump in
                    lectern_djvu_render(handles.context, handles.document, Int32(index), Int32(width), Int32(height),
                                        buffer.baseAddress, UInt(stride), pump)
                }
            }
            return ok != 0 ? DjVuPageImage(width: width, height: height, stride: stride, pixels: pixels) : nil
        }
    }

    static func message(_ pump: lectern_djvu_pump_state) -> String {
        var copy = pump.error
        let text = withUnsafeBytes(of: &copy) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        // djvulibre's messages may carry its own message-catalogue markers ("\003…").
        let cleaned = text.unicodeScalars.filter { $0.value >= 0x20 }.map(String.init).joined()
        return cleaned.isEmpty ? "not a DjVu document" : cleaned
    }
}

/// A DjVu page drawn by djvulibre: RGB, 3 bytes a pixel, top row first.
public struct DjVuPageImage: Sendable {
    public let width: Int
    public let height: Int
    public let stride: Int
    public let pixels: [UInt8]
}

private struct PageInfo: Sendable {
    let width: Int
    let height: Int
    let dpi: Int
}

/// The context and document of an open DjVu document, and the bytes a memory document reads.
final class Handles: @unchecked Sendable {
    // Used only under DjVuDocument.lock.
    let context: OpaquePointer
    var document: OpaquePointer?
    var bytes: [UInt8]?

    init(context: OpaquePointer, document: OpaquePointer?, bytes: [UInt8]?) {
        self.context = context
        self.document = document
        self.bytes = bytes
    }

    /// Runs `body` with a message-loop state pointing at the document's bytes.
    func withPump<T>(_ pump: inout lectern_djvu_pump_state, _ body: (UnsafeMutablePointer<lectern_djvu_pump_state>) -> T) -> T {
        guard let bytes else { return body(&pump) }
        return bytes.withUnsafeBufferPointer { buffer in
            pump.data = buffer.baseAddress
            pump.length = buffer.count
            defer { pump.data = nil }
            return body(&pump)
        }
    }

    func release() {
        if let document { lectern_djvu_document_release(document) }
        document = nil
        lectern_djvu_context_release(context)
    }
}

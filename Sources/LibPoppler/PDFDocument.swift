import CLecternPoppler
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A PDF document read through poppler-glib: metadata, permissions, outline, page labels and
/// the text of each page.
///
/// Thread-safe: poppler objects are not, so every call on the document happens under its own
/// lock, and documents are created one at a time (poppler-glib sets up its global state on the
/// first creation without a lock of its own).
///
/// poppler does not enforce the document's permissions: text comes back even when copying is
/// forbidden. Callers must check ``permissions``.
public final class PDFDocument: Sendable {
    /// A document opened from bytes may not be larger than this.
    public static let maxInMemorySize: UInt64 = 1 << 30

    /// The number of pages, read when the document was opened.
    public let pageCount: Int
    /// The document information dictionary.
    public let metadata: PDFMetadata
    /// The permission flags, owner password included (see ``PDFPermissions``).
    public let permissions: PDFPermissions

    private let state: Mutex<DocumentState>
    private static let creationLock = Mutex(())

    /// Whether poppler-glib could be loaded (it is opened on first use).
    public static let isAvailable: Bool = lectern_poppler_load() != 0

    /// Opens the PDF file at `path` (given to poppler as a `file://` URI).
    ///
    /// - Parameter password: the user or the owner password; nil tries the empty user password.
    /// - Throws: ``PDFError/passwordRequired`` when the document is encrypted and `password`
    ///   opens it neither as user nor as owner; ``PDFError/cannotOpen(_:)`` when the file
    ///   cannot be read; ``PDFError/damaged(_:)`` when it is not a usable PDF.
    public convenience init(path: String, password: String? = nil) throws(PDFError) {
        let uri = try PDFDocument.fileURI(path)
        let password = PDFDocument.popplerPassword(password)
        let handle = try PDFDocument.create { error in
            lectern_poppler_document_new_from_file(uri, password, &error)
        }
        self.init(handle: handle)
    }

    /// Opens a PDF held in memory — a decrypted LCP PDF, which must never be written to disk.
    /// poppler reads a copy of the bytes for the life of the document.
    ///
    /// The bytes go through a `GMemoryInputStream`: in poppler 22.12,
    /// `poppler_document_new_from_bytes` and `poppler_document_new_from_data` crash on an
    /// encrypted document given a wrong (non-nil) password — their retry with the UTF-8
    /// password reuses a stream the failed attempt freed — and `new_from_fd` reports such a
    /// document as damaged.
    ///
    /// - Throws: as ``init(path:password:)``, and ``PDFError/tooLarge(_:)`` beyond
    ///   ``maxInMemorySize``.
    public convenience init(data: Data, password: String? = nil) throws(PDFError) {
        guard UInt64(data.count) <= PDFDocument.maxInMemorySize else { throw .tooLarge(UInt64(data.count)) }
        guard !data.isEmpty else { throw .damaged("empty file") }
        guard PDFDocument.isAvailable else { throw .libraryUnavailable }
        let bytes = data.withUnsafeBytes { buffer in lectern_g_bytes_new(buffer.baseAddress, buffer.count) }
        defer { lectern_g_bytes_unref(bytes) }
        let stream = lectern_g_memory_input_stream_new_from_bytes(bytes)
        defer { lectern_g_object_unref(UnsafeMutableRawPointer(stream)) }
        let password = PDFDocument.popplerPassword(password)
        let handle = try PDFDocument.create { error in
            lectern_poppler_document_new_from_stream(stream, Int64(data.count), password, &error)
        }
        self.init(handle: handle)
    }

    /// The longest password, in UTF-8 bytes, that reaches poppler.
    ///
    /// ISO 32000-2 (§7.6.4.3.3) truncates AES-256 passwords to their first 127 bytes, and the
    /// writers (qpdf, Acrobat) do so before deriving the key; poppler 22.12 does not, and a
    /// password of 128 bytes or more overflows a stack buffer in its R6 key derivation. Older
    /// revisions use at most 32 bytes, so the truncation changes nothing for them.
    public static let maxPasswordBytes = 127

    /// `password` as the NUL-terminated bytes given to poppler, cut to ``maxPasswordBytes``
    /// (a NUL inside the password ends it, as it would in C).
    static func popplerPassword(_ password: String?) -> [CChar]? {
        guard let password else { return nil }
        let bytes = password.utf8.prefix { $0 != 0 }.prefix(maxPasswordBytes)
        return bytes.map { CChar(bitPattern: $0) } + [0]
    }

    private init(handle: OpaquePointer) {
        // The handle is not shared yet: no lock needed for these first reads.
        pageCount = max(0, Int(lectern_poppler_document_get_n_pages(handle)))
        permissions = PDFPermissions(rawValue: UInt32(lectern_poppler_document_get_permissions(handle)))
        metadata = PDFMetadata(
            title: takeNonBlankString(lectern_poppler_document_get_title(handle)),
            author: takeNonBlankString(lectern_poppler_document_get_author(handle)),
            subject: takeNonBlankString(lectern_poppler_document_get_subject(handle)),
            keywords: takeNonBlankString(lectern_poppler_document_get_keywords(handle)),
            creator: takeNonBlankString(lectern_poppler_document_get_creator(handle)),
            producer: takeNonBlankString(lectern_poppler_document_get_producer(handle)),
            creationDate: PDFDocument.date(lectern_poppler_document_get_creation_date(handle)),
            modificationDate: PDFDocument.date(lectern_poppler_document_get_modification_date(handle)))
        state = Mutex(DocumentState(handle: handle))
    }

    deinit { close() }

    /// Releases the document; later calls return nothing.
    public func close() {
        state.withLock { state in
            if let handle = state.handle { lectern_g_object_unref(UnsafeMutableRawPointer(handle)) }
            state.handle = nil
        }
    }

    /// The outline (bookmarks), nested, with destinations resolved to page indices.
    ///
    /// - Parameters:
    ///   - maxDepth: deeper entries are left out (a hostile outline may nest without end).
    ///   - maxItems: at most this many entries are read in all.
    public func outline(maxDepth: Int = 32, maxItems: Int = 10_000) -> [PDFOutlineItem] {
        let pageCount = pageCount
        return withHandle { handle in
            guard let iterator = lectern_poppler_index_iter_new(handle) else { return [] }
            defer { lectern_poppler_index_iter_free(iterator) }
            var reader = OutlineReader(document: handle, pageCount: pageCount, maxDepth: maxDepth, budget: maxItems)
            return reader.items(iterator, depth: 1)
        } ?? []
    }

    /// The label of the page at 0-based `index` (`/PageLabels`: "iii", "A-1"…); poppler gives
    /// the page number when the document has no labels.
    public func pageLabel(at index: Int) -> String? {
        withPage(index) { page in takeNonBlankString(lectern_poppler_page_get_label(page)) } ?? nil
    }

    /// The labels of every page, in one pass.
    public func pageLabels() -> [String?] {
        let pageCount = pageCount
        return withHandle { handle in
            (0..<pageCount).map { index in
                guard let page = lectern_poppler_document_get_page(handle, Int32(index)) else { return nil }
                defer { lectern_g_object_unref(UnsafeMutableRawPointer(page)) }
                return takeNonBlankString(lectern_poppler_page_get_label(page))
            }
        } ?? []
    }

    /// The text of the page at 0-based `index`, in reading order, with right-to-left runs in
    /// logical order and without the bidi embedding marks poppler adds (see ``PageText``).
    /// Nil when the page does not exist or cannot be read.
    public func text(ofPage index: Int) -> String? {
        textLayout(ofPage: index)?.text
    }

    /// The text of the page at 0-based `index` as ``text(ofPage:)``, with the box of each of
    /// its characters; nil when the page does not exist or cannot be read.
    public func textLayout(ofPage index: Int) -> PDFPageLayout? {
        withPage(index) { page in PageText.read(page) }
    }

    // MARK: - Helpers

    private func withHandle<T: Sendable>(_ body: (OpaquePointer) -> T) -> T? {
        state.withLock { state -> T? in
            guard let handle = state.handle else { return nil }
            return body(handle)
        }
    }

    func withPage<T: Sendable>(_ index: Int, _ body: (OpaquePointer) -> T) -> T? {
        guard index >= 0, index < pageCount else { return nil }
        return withHandle { handle -> T? in
            // A page tree that loops or lies about its count gives no page object.
            guard let page = lectern_poppler_document_get_page(handle, Int32(index)) else { return nil }
            defer { lectern_g_object_unref(UnsafeMutableRawPointer(page)) }
            return body(page)
        } ?? nil
    }

    private static func create(_ open: (inout UnsafeMutablePointer<lectern_gerror>?) -> OpaquePointer?) throws(PDFError) -> OpaquePointer {
        var error: UnsafeMutablePointer<lectern_gerror>?
        let handle = creationLock.withLock { _ in UncheckedHandle(open(&error)) }.pointer
        defer { if let error { lectern_g_error_free(error) } }
        guard let handle else { throw PDFError(gerror: error) }
        return handle
    }

    /// The `file://` URI of a local path; glib wants an absolute one.
    static func fileURI(_ path: String) throws(PDFError) -> String {
        guard isAvailable else { throw .libraryUnavailable }
        guard let real = realpath(path, nil) else {
            throw .cannotOpen(String(cString: strerror(errno)))
        }
        defer { free(real) }
        var error: UnsafeMutablePointer<lectern_gerror>?
        guard let uri = lectern_g_filename_to_uri(real, &error) else {
            let message = error?.pointee.message.map { String(cString: $0) } ?? "invalid path"
            if let error { lectern_g_error_free(error) }
            throw .cannotOpen(message)
        }
        return takeString(uri) ?? ""
    }

    private static func date(_ time: time_t) -> Date? {
        time > 0 ? Date(timeIntervalSince1970: Double(time)) : nil
    }
}

/// The poppler document behind the lock.
private struct DocumentState: ~Copyable, @unchecked Sendable {
    var handle: OpaquePointer?
}

/// Carries a freshly created handle out of the creation lock.
private struct UncheckedHandle: @unchecked Sendable {
    let pointer: OpaquePointer?
    init(_ pointer: OpaquePointer?) { self.pointer = pointer }
}

/// Walks a `PopplerIndexIter` tree into outline items, within a depth and item budget.
private struct OutlineReader {
    let document: OpaquePointer
    let pageCount: Int
    let maxDepth: Int
    var budget: Int

    init(document: OpaquePointer, pageCount: Int, maxDepth: Int, budget: Int) {
        self.document = document
        self.pageCount = pageCount
        self.maxDepth = maxDepth
        self.budget = budget
    }

    mutating func items(_ iterator: OpaquePointer, depth: Int) -> [PDFOutlineItem] {
        var siblings: [PDFOutlineItem] = []
        repeat {
            guard budget > 0 else { break }
            budget -= 1
            guard let actionPointer = lectern_poppler_index_iter_get_action(iterator) else { continue }
            defer { lectern_poppler_action_free(actionPointer) }
            let action = actionPointer.pointee
            var item = PDFOutlineItem(title: action.title.map { String(cString: $0) } ?? "")
            switch Int(action.type) {
            case Int(LECTERN_POPPLER_ACTION_GOTO_DEST):
                if let destination = action.target?.assumingMemoryBound(to: lectern_poppler_dest.self) {
                    item.pageIndex = pageIndex(of: destination)
                }
            case Int(LECTERN_POPPLER_ACTION_URI):
                item.uri = action.target.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) }
            default:
                break
            }
            if depth < maxDepth, let child = lectern_poppler_index_iter_get_child(iterator) {
                defer { lectern_poppler_index_iter_free(child) }
                item.children = items(child, depth: depth + 1)
            }
            siblings.append(item)
        } while lectern_poppler_index_iter_next(iterator) != 0
        return siblings
    }

    /// The 0-based page of a destination; named destinations are looked up in the document.
    private func pageIndex(of destination: UnsafeMutablePointer<lectern_poppler_dest>) -> Int? {
        var number = Int(destination.pointee.page_num)
        if Int(destination.pointee.type) == Int(LECTERN_POPPLER_DEST_NAMED) {
            guard let name = destination.pointee.named_dest,
                  let resolved = lectern_poppler_document_find_dest(document, name) else { return nil }
            defer { lectern_poppler_dest_free(resolved) }
            number = Int(resolved.pointee.page_num)
        }
        // poppler numbers pages from 1; 0 means "unknown".
        return number >= 1 && number <= pageCount ? number - 1 : nil
    }
}

import CLecternMobi
import CLecternXMLCleanupGuard
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// One file of a book as libmobi rebuilds it, named as libmobi's own package document names it
/// (`part00000.html`, `flow00001.css`, `resource00002.jpg`, `content.opf`).
public struct MobiFile: Sendable {
    public let name: String
    public let mediaType: String
    public let data: Data
}

/// A Mobipocket (MOBI, PRC, AZW) or Kindle Format 8 (AZW3) book read through libmobi, rebuilt
/// as the files of an EPUB package: XHTML parts (KF8) or the HTML of an old MOBI, style sheets,
/// images, an OPF package document with the EXTH metadata (title, authors, publisher,
/// language, cover) and an NCX table of contents. The KF8 part of a hybrid file is preferred.
public struct MobiBook: Sendable {
    /// Whether the text read is Kindle Format 8 (else the old Mobipocket HTML).
    public let isKF8: Bool
    public let files: [MobiFile]
    /// The OPF package document's name among ``files``.
    public static let packageName = "content.opf"

    /// A book is read whole into memory by libmobi: files past this are refused.
    public static let defaultMaxFileSize: UInt64 = 256 << 20

    /// Whether libmobi could be loaded; it is loaded (dlopen) the first time this is read,
    /// not at start (#28).
    public static let isAvailable: Bool = lectern_mobi_load() != 0

    /// Reads the book at `path`.
    ///
    /// - Throws: ``MobiError/drmProtected(protection:)`` for a book with Kindle DRM (nothing
    ///   of its text is decoded), ``MobiError/tooLarge(size:limit:)``, and as libmobi reports.
    public init(path: String, maxFileSize: UInt64 = MobiBook.defaultMaxFileSize) throws(MobiError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .cannotOpen(String(cString: strerror(errno))) }
        guard UInt64(info.st_size) <= maxFileSize else { throw .tooLarge(size: UInt64(info.st_size), limit: maxFileSize) }
        (isKF8, files) = try Self.read { book in lectern_mobi_load_filename(book, path) }
    }

    /// Reads a book held in memory (read through a stream over the bytes, never written out).
    public init(data: Data, maxFileSize: UInt64 = MobiBook.defaultMaxFileSize) throws(MobiError) {
        guard UInt64(data.count) <= maxFileSize else { throw .tooLarge(size: UInt64(data.count), limit: maxFileSize) }
        var bytes = [UInt8](data)
        if bytes.isEmpty { throw .damaged("the file is empty") }
        let count = bytes.count
        let result = bytes.withUnsafeMutableBytes { buffer -> Result<(Bool, [MobiFile]), MobiError> in
            guard let stream = fmemopen(buffer.baseAddress, count, "rb") else { return .failure(.damaged("out of memory")) }
            defer { fclose(stream) }
            return Result { () throws(MobiError) in try Self.read { book in lectern_mobi_load_file(book, stream) } }
        }
        (isKF8, files) = try result.get()
    }

    /// Loads a book with `load` and rebuilds its files.
    private static func read(load: (UnsafeMutablePointer<MOBIData>) -> MOBI_RET) throws(MobiError) -> (Bool, [MobiFile]) {
        // libmobi ends each book with xmlCleanupParser(), fatal to other threads parsing: the
        // guard linked in with this call makes it do nothing (xml_cleanup_guard.c).
        precondition(lectern_xml_cleanup_guard_installed() == 1)
        guard isAvailable else { throw .libraryUnavailable }
        guard let book = lectern_mobi_init() else { throw .damaged("out of memory") }
        defer { lectern_mobi_free(book) }
        let loaded = load(book)
        // A hybrid file has two record 0 headers (the KF7 part's and the KF8 part's, which
        // libmobi puts first): either flag is DRM.
        for header in [book.pointee.rh, book.pointee.next?.pointee.rh] {
            if let type = header?.pointee.encryption_type, type != 0 {
                throw .drmProtected(protection: MobiError.protection(encryptionType: type))
            }
        }
        guard loaded == MOBI_SUCCESS else { throw Self.error(loaded) }
        if lectern_mobi_is_encrypted(book) { throw .drmProtected(protection: MobiError.protection(encryptionType: 2)) }
        guard let rawml = lectern_mobi_init_rawml(book) else { throw .damaged("out of memory") }
        defer { lectern_mobi_free_rawml(rawml) }
        let parsed = lectern_mobi_parse_rawml(rawml, book)
        guard parsed == MOBI_SUCCESS else { throw Self.error(parsed) }
        let isKF8 = lectern_mobi_is_rawml_kf8(rawml)
        var files: [MobiFile] = []
        // The first flow is the raw text the parts were cut from.
        Self.collect(rawml.pointee.flow?.pointee.next, prefix: "flow", into: &files) { $0 }
        Self.collect(rawml.pointee.markup, prefix: "part", into: &files) { [isKF8] data in
            isKF8 ? data : MobiHTMLCleaner.clean(data)
        }
        Self.collect(rawml.pointee.resources, prefix: "resource", into: &files) { $0 }
        guard files.contains(where: { $0.name == Self.packageName }), files.contains(where: { $0.name.hasPrefix("part") }) else {
            throw .damaged("libmobi found no text in it")
        }
        return (isKF8, files)
    }

    private static func collect(_ first: UnsafeMutablePointer<MOBIPart>?, prefix: String, into files: inout [MobiFile],
                                transform: (Data) -> Data) {
        var part = first
        while let current = part?.pointee {
            defer { part = current.next }
            guard current.size > 0, let bytes = current.data else { continue }
            let meta = lectern_mobi_get_filemeta_by_type(current.type)
            let ext = withUnsafeBytes(of: meta.extension) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let mediaType = withUnsafeBytes(of: meta.mime_type) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let name = current.type == T_OPF ? packageName : "\(prefix)\(padded(current.uid)).\(ext)"
            files.append(MobiFile(name: name, mediaType: mediaType, data: transform(Data(bytes: bytes, count: current.size))))
        }
    }

    /// `uid` in five digits at least, as libmobi names files (`%05zu`).
    private static func padded(_ uid: Int) -> String {
        let digits = String(uid)
        return String(repeating: "0", count: max(0, 5 - digits.count)) + digits
    }

    private static func error(_ code: MOBI_RET) -> MobiError {
        switch code {
        case MOBI_FILE_ENCRYPTED, MOBI_DRM_KEYNOTFOUND, MOBI_DRM_PIDINV, MOBI_DRM_UNSUPPORTED, MOBI_DRM_EXPIRED:
            .drmProtected(protection: "Kindle DRM")
        case MOBI_FILE_NOT_FOUND: .cannotOpen("no such file")
        case MOBI_FILE_UNSUPPORTED: .damaged("not a Mobipocket or Kindle book libmobi reads")
        case MOBI_MALLOC_FAILED: .damaged("it declares more than can be allocated")
        default: .damaged("libmobi error \(code.rawValue)")
        }
    }
}

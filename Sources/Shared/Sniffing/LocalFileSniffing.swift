import FoundationEssentials
import LibZip

/// What sniffing a local path found, with the archive already open when it is one, so that
/// the ``AssetRetriever`` does not open it twice.
struct SniffedPath {
    enum Content {
        case folder
        case archive(ZipArchive)
        case file
    }

    var format: Format?
    var content: Content
}

extension FormatSniffer {
    /// The format of a local file or folder, reading only what sniffing needs.
    ///
    /// - Parameter hints: defaults to the path's extension.
    /// - Returns: nil when the content is of no format Lectern knows.
    /// - Throws: ``AssetError/notFound(_:)``, ``AssetError/unreadable(_:reason:)``, or
    ///   ``AssetError/damaged(_:reason:)`` for a ZIP archive libzip cannot open.
    public func sniff(file path: String, hints: FormatHints? = nil) throws(AssetError) -> Format? {
        let sniffed = try sniffPath(path, hints: hints ?? FormatHints(path: path))
        if case .archive(let archive) = sniffed.content { archive.close() }
        return sniffed.format
    }

    func sniffPath(_ path: String, hints: FormatHints) throws(AssetError) -> SniffedPath {
        // stat follows symbolic links: a dangling one is "not found"; a folder on the way that
        // may not be searched is "permission denied", not "not found".
        let kind: FileKind
        switch FileKind.lookUp(path) {
        case .success(let found): kind = found
        case .failure(let error) where error.isMissing: throw .notFound(path)
        case .failure(let error): throw .unreadable(path, reason: error.description)
        }
        switch kind {
        case .directory: return SniffedPath(format: sniff(folder: path), content: .folder)
        // Reading a FIFO or a device could block forever.
        case .other: throw .unreadable(path, reason: "not a regular file")
        case .file: break
        }

        let resource = FileResource(link: Link(href: "file"), path: path)
        defer { resource.close() }
        let head = try Self.read(resource, range: 0..<UInt64(limits.headLength), path: path)
        let signature = ContentSignature(head: head)
        if signature != .zip, signature != .pdf, let text = hints.textFormat { return SniffedPath(format: text, content: .file) }
        switch signature {
        case .zip:
            let archive: ZipArchive
            do {
                archive = try ZipArchive(path: path)
            } catch {
                throw Self.assetError(error, path: path)
            }
            return SniffedPath(format: sniff(archive: archive, hints: hints), content: .archive(archive))
        case .json, .markup:
            if ContentSignature.hasHTML5Doctype(head) { return SniffedPath(format: Format(kind: .html), content: .file) }
            let length = try Self.length(of: resource, path: path)
            // A JSON document cannot be classified from a prefix: past the limit, give up.
            if ContentSignature(head: head) == .json, length > UInt64(limits.maxDocumentLength) {
                return SniffedPath(format: nil, content: .file)
            }
            let document = UInt64(head.count) == length
                ? head : try Self.read(resource, range: 0..<UInt64(limits.maxDocumentLength), path: path)
            return SniffedPath(format: sniff(bytes: document, hints: hints), content: .file)
        case .pdf, .unknown:
            return SniffedPath(format: sniff(bytes: head, hints: hints), content: .file)
        }
    }

    private static func read(_ resource: FileResource, range: Range<UInt64>, path: String) throws(AssetError) -> Data {
        switch resource.read(range: range) {
        case .success(let data): return data
        case .failure(let error): throw assetError(error, path: path)
        }
    }

    private static func length(of resource: FileResource, path: String) throws(AssetError) -> UInt64 {
        switch resource.length {
        case .success(let length): return length
        case .failure(let error): throw assetError(error, path: path)
        }
    }

    static func assetError(_ error: ResourceError, path: String) -> AssetError {
        switch error {
        case .notFound: .notFound(path)
        case .forbidden: .unreadable(path, reason: "permission denied")
        case .unavailable(let cause): .unreadable(path, reason: cause.map { "\($0)" } ?? "input/output error")
        case .other(let cause): .unreadable(path, reason: "\(cause)")
        }
    }

    static func assetError(_ error: ZipError, path: String) -> AssetError {
        switch error {
        case .cannotOpen(let reason): .unreadable(path, reason: reason)
        case .notAnArchive:
            .damaged(path, reason: "it starts like a ZIP archive but libzip finds no central directory (truncated file?)")
        default: .damaged(path, reason: error.description)
        }
    }
}

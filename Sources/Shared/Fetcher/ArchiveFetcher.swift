import FoundationEssentials
import LibZip
import Synchronization

/// Serves the entries of a ZIP archive, which it owns and closes.
public final class ArchiveFetcher: Fetcher {
    public let archive: ZipArchive
    /// The links of the entries, made the first time they are asked for: a book of thousands
    /// of entries reads its first page from the archive's directory without them (#28).
    private let listed = Mutex<[Link]?>(nil)

    public init(archive: ZipArchive) {
        self.archive = archive
    }

    /// The archive's files, in archive order.
    public var links: [Link] {
        listed.withLock { listed in
            if let listed { return listed }
            let links = archive.entries.filter { !$0.isDirectory }.map(ArchiveFetcher.link(for:))
            listed = links
            return links
        }
    }

    /// Whether the links have been made (asking never makes them).
    public var hasListedLinks: Bool { listed.withLock { $0 != nil } }

    /// Opens the archive at `path`.
    public convenience init(path: String) throws(ZipError) {
        self.init(archive: try ZipArchive(path: path))
    }

    /// The link of the file at `path`, as ``links`` has it, made alone; nil when the archive
    /// has no such file.
    public func link(atPath path: String) -> Link? {
        guard let entry = archive.entry(at: path), !entry.isDirectory else { return nil }
        return Self.link(for: entry)
    }

    static func link(for entry: ZipEntry) -> Link {
        var properties = Properties()
        properties["archive"] = .object(JSONObject([
            "entryLength": .int(Int(entry.compressedSize)),
            "isEntryCompressed": .bool(!entry.isStored),
        ]))
        return Link(href: Href.fromPath(entry.path), mediaType: MediaType.of(path: entry.path), properties: properties)
    }

    public func get(_ link: Link, parameters: [String: String]) -> any Resource {
        guard let path = link.path, let entry = archive.entry(at: path) else {
            return FailureResource(link: link, error: .notFound(link.href))
        }
        var link = link
        if link.mediaType == nil {
            link.mediaType = MediaType.of(path: path)
        }
        return ArchiveEntryResource(link: link, entry: entry, archive: archive)
    }

    public func close() { archive.close() }
}

/// One entry of an archive.
public final class ArchiveEntryResource: Resource {
    public let link: Link
    public let entry: ZipEntry
    let archive: ZipArchive

    init(link: Link, entry: ZipEntry, archive: ZipArchive) {
        self.link = link
        self.entry = entry
        self.archive = archive
    }

    public var length: ResourceResult<UInt64> { .success(entry.size) }

    public func read(range: Range<UInt64>?) -> ResourceResult<Data> {
        do {
            if let range { return .success(try archive.read(entry, range: range)) }
            return .success(try archive.read(entry))
        } catch {
            // A checksum failure is damage here: the ZIP password protection verifies the
            // password (CRC included) before the archive is read, so a wrong password that
            // passed PKWARE's one-byte check never reaches this point.
            return .failure(error.resourceError)
        }
    }

    public func close() {}
}

extension ZipError {
    /// The resource error a reader sees for this archive error.
    public var resourceError: ResourceError {
        switch self {
        case .passwordRequired, .wrongPassword: .forbidden(self)
        case .closed, .cannotOpen: .unavailable(self)
        case .entryNotFound(let name): .notFound(name)
        default: .other(self)
        }
    }
}

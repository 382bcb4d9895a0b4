import FoundationEssentials
import LibZip

/// The result of reading a small entry of a container for sniffing.
enum SniffedEntry {
    /// The entry's bytes (no more than asked for plus one, so that an oversized entry shows).
    case data(Data)
    /// No such entry.
    case missing
    /// The entry is larger than sniffing allows; nothing was read.
    case tooLarge
    /// The entry exists but cannot be read: encrypted with a ZIP password, damaged.
    case unreadable
}

/// A ZIP archive or a folder, as the container sniffer sees it: entry names and bounded
/// reads of a few small entries.
protocol SniffedContainer {
    /// The paths of the entries, or nil when they cannot be listed cheaply (a folder).
    var entryPaths: [String]? { get }
    /// Whether an entry (not a directory) exists at `path`.
    func contains(_ path: String) -> Bool
    /// Reads the entry at `path`, refusing one longer than `maxLength` bytes.
    func read(_ path: String, maxLength: Int) -> SniffedEntry
}

/// A ZIP archive opened with libzip. Sizes are checked against the central directory before
/// reading, and the read itself is bounded too, since a declared size may lie.
struct ZipSniffedContainer: SniffedContainer {
    let archive: ZipArchive

    var entryPaths: [String]? { archive.entries.map(\.path) }

    func contains(_ path: String) -> Bool {
        archive.entry(at: path).map { !$0.isDirectory } ?? false
    }

    func read(_ path: String, maxLength: Int) -> SniffedEntry {
        guard let entry = archive.entry(at: path), !entry.isDirectory else { return .missing }
        guard entry.size <= UInt64(maxLength) else { return .tooLarge }
        if entry.isEncrypted { return .unreadable }
        guard let data = try? archive.read(entry, range: 0..<(UInt64(maxLength) + 1)) else { return .unreadable }
        return data.count > maxLength ? .tooLarge : .data(data)
    }
}

/// A folder: an exploded EPUB or Readium package. Reads go through a ``FileFetcher``, so a
/// symbolic link leading outside the folder is not followed.
struct DirectorySniffedContainer: SniffedContainer {
    let fetcher: FileFetcher

    init(path: String) {
        fetcher = FileFetcher(paths: ["": path])
    }

    var entryPaths: [String]? { nil }

    func contains(_ path: String) -> Bool {
        if case .success = fetcher.get(href: Href.fromPath(path)).length { return true }
        return false
    }

    func read(_ path: String, maxLength: Int) -> SniffedEntry {
        let resource = fetcher.get(href: Href.fromPath(path))
        defer { resource.close() }
        switch resource.length {
        case .failure(.notFound): return .missing
        case .failure: return .unreadable
        case .success(let length) where length > UInt64(maxLength): return .tooLarge
        case .success: break
        }
        switch resource.read(range: 0..<(UInt64(maxLength) + 1)) {
        case .success(let data): return data.count > maxLength ? .tooLarge : .data(data)
        case .failure: return .unreadable
        }
    }
}

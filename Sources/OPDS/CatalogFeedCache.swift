import FoundationEssentials
import Shared
#if canImport(Glibc)
import Glibc
#endif

/// The last copy of each catalog feed read without credentials, in
/// `$XDG_CACHE_HOME/lectern/catalogs`, with the `ETag` and `Last-Modified` the server gave:
/// asking again sends `If-None-Match`/`If-Modified-Since` (a 304 reuses the copy), and when
/// the server cannot be reached, or `--offline` is asked, the copy is shown with its date.
/// Feeds read with a catalog's credentials are never kept here (they may be personal).
public struct CatalogFeedCache: Sendable {
    /// A kept copy.
    public struct Entry: Sendable {
        public var body: [UInt8]
        /// The URL the feed was read from (after redirects), against which it resolves.
        public var url: String
        public var etag: String?
        public var lastModified: String?
        /// When the server last gave or confirmed this copy.
        public var fetchedAt: Date
    }

    public let directory: String

    public init(directory: String = XDGDirectories.cache + "/catalogs") {
        self.directory = directory
    }

    /// The copy kept for `url`, if any.
    public func entry(for url: String) -> Entry? {
        let base = directory + "/" + Self.key(url)
        guard let meta = FileManager.default.contents(atPath: base + ".meta"),
              let body = FileManager.default.contents(atPath: base + ".body") else { return nil }
        let lines = String(decoding: meta, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The first line is the URL asked for: a hash collision is a miss, not another feed.
        guard lines.count >= 5, lines[0] == url, let seconds = Double(lines[4]) else { return nil }
        return Entry(body: [UInt8](body), url: lines[1], etag: lines[2].isEmpty ? nil : lines[2],
                     lastModified: lines[3].isEmpty ? nil : lines[3], fetchedAt: Date(timeIntervalSince1970: seconds))
    }

    /// Keeps `entry` as the copy of `url` (nothing is kept for values that do not fit a line,
    /// nor for a URL with user information: it may hold a password). The files are the
    /// person's alone (0600).
    public func store(_ entry: Entry, for url: String) {
        let fields = [url, entry.url, entry.etag ?? "", entry.lastModified ?? ""]
        guard !fields.contains(where: { $0.contains("\n") || $0.contains("\r") }) else { return }
        guard !CatalogUserInfo(splitting: url).hadUserInfo, !CatalogUserInfo(splitting: entry.url).hadUserInfo else { return }
        XDGDirectories.ensure(directory)
        let base = directory + "/" + Self.key(url)
        let meta = (fields + [String(entry.fetchedAt.timeIntervalSince1970)]).joined(separator: "\n")
        do {
            try Data(entry.body).write(to: URL(fileURLWithPath: base + ".body"), options: .atomic)
            try Data(meta.utf8).write(to: URL(fileURLWithPath: base + ".meta"), options: .atomic)
            chmod(base + ".body", 0o600)
            chmod(base + ".meta", 0o600)
        } catch {
            // A cache that cannot be written only costs the next download.
        }
    }

    /// FNV-1a (64 bits) of the URL, in hexadecimal: a file name of fixed length and no
    /// character from the URL.
    static func key(_ url: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

import Bookshelf
import FoundationEssentials
import Shared

/// The text of every reading-order item of an unprotected book, kept in the cache directory
/// (`$XDG_CACHE_HOME/lectern/text/`, named by ``ContentIdentity/cacheName(of:)``) so that reopening the book has its search index
/// without converting every chapter again. Protected books are never written here: their
/// decrypted text stays in memory.
///
/// The file: a magic line, the item count, then each item as its UTF-8 byte count on a line
/// followed by the bytes. Anything else (truncated, another version) is ignored and rebuilt.
enum BookTextCache {
    static let magic = "lectern-text-1\n"

    static var folder: String { XDGDirectories.cache + "/text" }

    static func path(identity: String, in directory: String = BookTextCache.folder) -> String? {
        identity.isEmpty ? nil : directory + "/" + ContentIdentity.cacheName(of: identity)
    }

    /// The texts stored for `identity`, when there are `count` of them.
    static func read(identity: String, count: Int, in directory: String = BookTextCache.folder) -> [String]? {
        guard let path = path(identity: identity, in: directory), let data = FileManager.default.contents(atPath: path) else { return nil }
        let bytes = [UInt8](data)
        var position = 0
        func line() -> String? {
            guard let end = bytes[position...].firstIndex(of: 10) else { return nil }
            defer { position = end + 1 }
            return String(decoding: bytes[position..<end], as: UTF8.self)
        }
        guard line().map({ $0 + "\n" }) == magic, let stored = line().flatMap(Int.init), stored == count else { return nil }
        var texts: [String] = []
        texts.reserveCapacity(count)
        for _ in 0..<count {
            guard let length = line().flatMap(Int.init), length >= 0, position + length <= bytes.count else { return nil }
            texts.append(String(decoding: bytes[position..<(position + length)], as: UTF8.self))
            position += length
        }
        return texts
    }

    /// Stores `texts` for `identity` (written to a temporary file, then renamed).
    static func write(_ texts: [String], identity: String, in directory: String = BookTextCache.folder) {
        guard let path = path(identity: identity, in: directory) else { return }
        XDGDirectories.ensure(directory)
        var data = Data(magic.utf8)
        data.append(contentsOf: "\(texts.count)\n".utf8)
        for text in texts {
            let utf8 = Array(text.utf8)
            data.append(contentsOf: "\(utf8.count)\n".utf8)
            data.append(contentsOf: utf8)
        }
        let temporary = path + ".partial"
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]) else { return }
        _ = try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.moveItem(atPath: temporary, toPath: path)
    }
}

import Bookshelf
import FoundationEssentials
import Shared
#if canImport(Glibc)
import Glibc
#endif

/// What the bookshelf knows of a publication's cover.
enum ShelfCover: Sendable, Equatable {
    /// A small picture of it (at most ``CoverThumbnailCache/maxWidth`` ×
    /// ``CoverThumbnailCache/maxHeight`` pixels).
    case picture(Bitmap)
    /// No cover to show, and why, in a few words ("No cover", "Protected"…).
    case none(String)
}

/// Small cover pictures of the library's unprotected publications, kept in the cache
/// directory (`$XDG_CACHE_HOME/lectern/covers/`, one file per publication named by
/// ``ContentIdentity/cacheName(of:)``), so that the bookshelf does not open and decode every
/// book again. A protected publication's cover is never written here (its pixels are the
/// protected content): the caller checks, and ``write(_:identity:in:)`` is only called for
/// publications opened without any protection.
///
/// The file: a magic line, a line `width height channels`, then the pixels, rows one after
/// the other without padding (3 channels RGB or 4 RGBA, not premultiplied). `0 0 0` and no
/// pixels records that the publication has no cover. Anything else is ignored and rewritten.
enum CoverThumbnailCache {
    static let magic = "lectern-cover-1\n"
    /// The largest thumbnail kept: enough for a side panel of 40 columns drawn in pixels.
    static let maxWidth = 256
    static let maxHeight = 384

    static var folder: String { XDGDirectories.cache + "/covers" }

    static func path(identity: String, in directory: String = CoverThumbnailCache.folder) -> String? {
        identity.isEmpty ? nil : directory + "/" + ContentIdentity.cacheName(of: identity)
    }

    /// The cover stored for `identity`; nil when there is none or the file is damaged.
    static func read(identity: String, in directory: String = CoverThumbnailCache.folder) -> ShelfCover? {
        guard let path = path(identity: identity, in: directory),
              Self.fileSize(path).map({ $0 <= magic.utf8.count + 64 + maxWidth * maxHeight * 4 }) == true,
              let data = FileManager.default.contents(atPath: path) else { return nil }
        return decode([UInt8](data))
    }

    /// The size of the file at `path` (a file far larger than a thumbnail is not read).
    private static func fileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    /// The cover held in the bytes of a cache file; nil when they are not one.
    static func decode(_ bytes: [UInt8]) -> ShelfCover? {
        let magicBytes = Array(magic.utf8)
        guard bytes.count > magicBytes.count, Array(bytes[0..<magicBytes.count]) == magicBytes,
              let end = bytes[magicBytes.count...].prefix(40).firstIndex(of: 10) else { return nil }
        let numbers = String(decoding: bytes[magicBytes.count..<end], as: UTF8.self).split(separator: " ").map { Int($0) }
        guard numbers.count == 3, let width = numbers[0], let height = numbers[1], let channels = numbers[2] else { return nil }
        let pixels = bytes[(end + 1)...]
        if width == 0, height == 0, channels == 0 { return pixels.isEmpty ? ShelfCover.none("No cover") : nil }
        guard (1...maxWidth).contains(width), (1...maxHeight).contains(height), channels == 3 || channels == 4,
              pixels.count == width * height * channels else { return nil }
        return .picture(Bitmap(width: width, height: height, stride: width * channels, layout: channels == 4 ? .rgba : .rgb,
                               pixels: Array(pixels)))
    }

    /// The bytes of the cache file for `cover`.
    static func encode(_ cover: ShelfCover) -> [UInt8] {
        var bytes = Array(magic.utf8)
        guard case .picture(let bitmap) = cover else {
            bytes += Array("0 0 0\n".utf8)
            return bytes
        }
        let channels = bitmap.layout == .rgb ? 3 : 4
        bytes += Array("\(bitmap.width) \(bitmap.height) \(channels)\n".utf8)
        bytes.reserveCapacity(bytes.count + bitmap.width * bitmap.height * channels)
        for y in 0..<bitmap.height {
            switch bitmap.layout {
            case .rgb, .rgba:
                let start = y * bitmap.stride
                bytes += bitmap.pixels[start..<(start + bitmap.width * channels)]
            case .bgraPremultiplied:
                for x in 0..<bitmap.width {
                    let (r, g, b, a) = bitmap.rgba(x: x, y: y)
                    bytes += [r, g, b, a]
                }
            }
        }
        return bytes
    }

    /// Stores `cover` for `identity` (a temporary file, then renamed; readable by the owner
    /// only). Only for unprotected publications.
    static func write(_ cover: ShelfCover, identity: String, in directory: String = CoverThumbnailCache.folder) {
        guard let path = path(identity: identity, in: directory) else { return }
        if case .picture(let bitmap) = cover, bitmap.width > maxWidth || bitmap.height > maxHeight { return }
        XDGDirectories.ensure(directory)
        let temporary = path + ".partial"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(encode(cover)), attributes: [.posixPermissions: 0o600]) else { return }
        _ = try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.moveItem(atPath: temporary, toPath: path)
    }
}

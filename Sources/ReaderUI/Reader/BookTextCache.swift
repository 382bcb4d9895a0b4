import Bookshelf
import Shared
import TextLayout
#if canImport(Glibc)
import Glibc
#endif

/// The text of every reading-order item of an unprotected book, kept in the cache directory
/// (`$XDG_CACHE_HOME/lectern/text/`, named by ``ContentIdentity/cacheName(of:)``): the book's
/// search index lives there rather than in memory (``BookTextIndex`` reads one chapter at a
/// time from it), and reopening the book finds it without converting every chapter again.
/// Protected books are never written here: their decrypted text stays in memory.
///
/// The file: a magic line, then each item's UTF-8 followed by its folded form
/// (``SearchableText/foldedBytes``), written chapter after chapter as the book pass converts
/// them; then a table (per item: offset, text bytes, folded bytes, characters; 64-bit little
/// endian) and a footer (item count, table offset, end magic). Anything else (truncated,
/// another version) is ignored and rebuilt. It is written under a temporary name, renamed
/// once whole.
enum BookTextCache {
    static let magic = Array("lectern-text-2\n".utf8)
    static let endMagic = Array("LTXTEND2".utf8)
    static let entryBytes = 32
    static let footerBytes = 24

    static var folder: String { XDGDirectories.cache + "/text" }

    static func path(identity: String, in directory: String = BookTextCache.folder) -> String? {
        identity.isEmpty ? nil : directory + "/" + ContentIdentity.cacheName(of: identity)
    }

    /// The chapters stored for `identity`, when there are `count` of them: the table only is
    /// read; the texts stay in the file, open for reading.
    static func open(identity: String, count: Int, in directory: String = BookTextCache.folder) -> [StoredChapterText]? {
        guard let path = path(identity: identity, in: directory) else { return nil }
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        let file = BookTextFile(descriptor: descriptor, partialPath: nil)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        let size = Int(status.st_size)
        guard size >= magic.count + footerBytes, file.bytes(at: 0, count: magic.count) == magic,
              let footer = file.bytes(at: size - footerBytes, count: footerBytes),
              Array(footer[16...]) == endMagic else { return nil }
        let stored = Int(littleEndian: footer, at: 0), tableOffset = Int(littleEndian: footer, at: 8)
        guard stored == count, count >= 0, tableOffset >= magic.count, tableOffset <= size,
              count <= (size - footerBytes) / entryBytes, tableOffset + count * entryBytes == size - footerBytes,
              let table = file.bytes(at: tableOffset, count: count * entryBytes) else { return nil }
        var chapters: [StoredChapterText] = []
        chapters.reserveCapacity(count)
        for index in 0..<count {
            let base = index * entryBytes
            let offset = Int(littleEndian: table, at: base), textBytes = Int(littleEndian: table, at: base + 8)
            let foldedBytes = Int(littleEndian: table, at: base + 16), length = Int(littleEndian: table, at: base + 24)
            guard offset >= magic.count, textBytes >= 0, foldedBytes >= 0, length >= 0,
                  textBytes <= tableOffset, foldedBytes <= tableOffset, offset <= tableOffset - textBytes - foldedBytes
            else { return nil }
            chapters.append(StoredChapterText(store: file, offset: offset, textBytes: textBytes, foldedBytes: foldedBytes, length: length))
        }
        return chapters
    }

    /// The texts stored for `identity`, when there are `count` of them.
    static func read(identity: String, count: Int, in directory: String = BookTextCache.folder) -> [String]? {
        guard let chapters = open(identity: identity, count: count, in: directory) else { return nil }
        var texts: [String] = []
        for chapter in chapters {
            guard let text = chapter.text() else { return nil }
            texts.append(text)
        }
        return texts
    }

    /// Stores `texts` for `identity` at once (a book pass writes them as it goes: ``Writer``).
    static func write(_ texts: [String], identity: String, in directory: String = BookTextCache.folder) {
        guard let writer = Writer(identity: identity, in: directory) else { return }
        var chapters: [StoredChapterText] = []
        for text in texts {
            guard let chapter = writer.append(text: text, at: chapters.last.map { $0.offset + $0.textBytes + $0.foldedBytes } ?? magic.count)
            else { return }
            chapters.append(chapter)
        }
        writer.finish(chapters)
    }

    /// The file of one book pass, under a temporary name until ``finish(_:)``: each chapter is
    /// appended as soon as it is converted, and read back from it by searches meanwhile. A pass
    /// that does not finish (cancelled, a chapter unreadable) leaves nothing: the temporary
    /// file goes with the last reference to it.
    struct Writer: Sendable {
        let file: BookTextFile
        let path: String

        init?(identity: String, in directory: String = BookTextCache.folder) {
            guard let path = BookTextCache.path(identity: identity, in: directory) else { return nil }
            XDGDirectories.ensure(directory)
            let partial = path + ".partial-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            let descriptor = Glibc.open(partial, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { return nil }
            file = BookTextFile(descriptor: descriptor, partialPath: partial)
            self.path = path
            guard file.write(magic, at: 0) else { return nil }
        }

        /// Writes `text` and its folded form (``SearchableText/foldedBytes``, folded here a
        /// piece at a time: neither the folded chapter nor a copy of its text is ever whole in
        /// memory) at `offset`, the end of the previous chapter; nil when the disk refuses (the
        /// caller keeps the chapter in memory instead).
        func append(text: String, at offset: Int) -> StoredChapterText? {
            let textBytes = text.utf8.count
            let wrote = text.utf8.withContiguousStorageIfAvailable { file.write(UnsafeRawBufferPointer($0), at: offset) }
                ?? file.write(Array(text.utf8), at: offset)
            guard wrote else { return nil }
            var folded: [UInt8] = []
            folded.reserveCapacity(1 << 16)
            var foldedBytes = 0, length = 0
            for character in text {
                folded.append(contentsOf: TextFolding.fold(character).utf8)
                length += 1
                if folded.count >= 1 << 16 {
                    guard file.write(folded, at: offset + textBytes + foldedBytes) else { return nil }
                    foldedBytes += folded.count
                    folded.removeAll(keepingCapacity: true)
                }
            }
            guard file.write(folded, at: offset + textBytes + foldedBytes) else { return nil }
            foldedBytes += folded.count
            return StoredChapterText(store: file, offset: offset, textBytes: textBytes, foldedBytes: foldedBytes, length: length)
        }

        /// Writes the table of `chapters` and gives the file its name.
        func finish(_ chapters: [StoredChapterText]) {
            let tableOffset = chapters.last.map { $0.offset + $0.textBytes + $0.foldedBytes } ?? magic.count
            var tail: [UInt8] = []
            tail.reserveCapacity(chapters.count * entryBytes + footerBytes)
            for chapter in chapters {
                for value in [chapter.offset, chapter.textBytes, chapter.foldedBytes, chapter.length] { tail.appendLittleEndian(value) }
            }
            tail.appendLittleEndian(chapters.count)
            tail.appendLittleEndian(tableOffset)
            tail += endMagic
            guard file.write(tail, at: tableOffset), let partial = file.partialPath else { return }
            _ = rename(partial, path)
        }
    }
}

/// A book's text file, open: read with `pread` and written with `pwrite`, safe from any
/// thread (the descriptor never changes). Closed with its last reference; a temporary file
/// is removed then (after ``BookTextCache/Writer/finish(_:)`` renamed it, nothing is there).
final class BookTextFile: BookTextStore {
    let descriptor: Int32
    let partialPath: String?

    init(descriptor: Int32, partialPath: String?) {
        self.descriptor = descriptor
        self.partialPath = partialPath
    }

    deinit {
        close(descriptor)
        if let partialPath { unlink(partialPath) }
    }

    func bytes(at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0 else { return nil }
        var complete = true
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let read = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
                if read < 0, errno == EINTR { continue }
                guard read > 0 else { complete = false; break }
                done += read
            }
            initialized = done
        }
        return complete ? bytes : nil
    }

    func write(_ bytes: [UInt8], at offset: Int) -> Bool {
        bytes.withUnsafeBytes { write($0, at: offset) }
    }

    func write(_ buffer: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        guard buffer.count > 0 else { return true }
        var done = 0
        while done < buffer.count {
            let written = pwrite(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            done += written
        }
        return true
    }
}

private extension Int {
    init(littleEndian bytes: [UInt8], at index: Int) {
        var value: UInt64 = 0
        for shift in 0..<8 { value |= UInt64(bytes[index + shift]) << (8 * shift) }
        self = Int(truncatingIfNeeded: value)
    }
}

private extension Array where Element == UInt8 {
    mutating func appendLittleEndian(_ value: Int) {
        let bits = UInt64(truncatingIfNeeded: value)
        for shift in 0..<8 { append(UInt8(truncatingIfNeeded: bits >> (8 * shift))) }
    }
}

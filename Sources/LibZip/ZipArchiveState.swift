import CLecternZip
import FoundationEssentials

/// A forward reading position in a compressed or encrypted entry, kept open between reads.
final class ZipCursor {
    let entryIndex: Int
    let file: OpaquePointer
    var position: UInt64 = 0

    init(entryIndex: Int, file: OpaquePointer) {
        self.entryIndex = entryIndex
        self.file = file
    }
}

/// The libzip handle and open cursors, guarded by the archive's lock.
struct State: ~Copyable, @unchecked Sendable {
    var archive: OpaquePointer?
    var cursors: [ZipCursor] = []
    static let maxCursors = 4
    /// Cursors inflating deflated entries here, from their start or an access point.
    var deflateCursors: [RawDeflateCursor] = []
    /// Cursors a long read is using between its chunks (the lock is released meanwhile).
    var busyCursors: [RawDeflateCursor] = []
    /// Access points by entry index, and the entries whose stored points were looked for.
    var accessIndexes: [Int: DeflateAccessIndex] = [:]
    var storeLoaded: Set<Int> = []
    var storeSaved: Set<Int> = []
    /// Uncompressed bytes produced for reads of compressed entries, for tests and measurements.
    var inflatedBytes: UInt64 = 0

    init(archive: OpaquePointer) { self.archive = archive }

    func open(_ entry: ZipEntry, flags: zip_flags_t) throws(ZipError) -> OpaquePointer {
        guard let archive else { throw .closed }
        guard let file = lectern_zip_fopen_index(archive, zip_uint64_t(entry.index), flags) else {
            throw ZipArchive.error(from: lectern_zip_get_error(archive))
        }
        return file
    }

    /// A cursor on `entry` at or before `offset`, reusing an open one when possible.
    mutating func cursor(for entry: ZipEntry, at offset: UInt64) throws(ZipError) -> ZipCursor {
        if let found = cursors.firstIndex(where: { $0.entryIndex == entry.index }) {
            let cursor = cursors.remove(at: found)
            if cursor.position <= offset {
                cursors.append(cursor)
                return cursor
            }
            lectern_zip_fclose(cursor.file)
        }
        let cursor = ZipCursor(entryIndex: entry.index, file: try open(entry, flags: 0))
        cursors.append(cursor)
        if cursors.count > Self.maxCursors { lectern_zip_fclose(cursors.removeFirst().file) }
        return cursor
    }

    mutating func dropCursor(_ cursor: ZipCursor) {
        guard let index = cursors.firstIndex(where: { $0 === cursor }) else { return }
        lectern_zip_fclose(cursors.remove(at: index).file)
    }

    mutating func closeCursors() {
        for cursor in cursors { lectern_zip_fclose(cursor.file) }
        cursors.removeAll()
    }

    /// Closes the files of the inflating cursors, those a read is using too (it then fails
    /// with ``ZipError/closed``): before the archive goes, which owns them.
    mutating func closeInflatingCursors() {
        for cursor in deflateCursors + busyCursors { cursor.closeFile() }
        deflateCursors.removeAll()
        busyCursors.removeAll()
    }
}

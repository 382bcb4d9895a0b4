import CLecternZip
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reading long deflated entries from access points: a whole read records a point about every
/// ``DeflateAccessIndex/span`` of output, and a ranged read starts from the last point before
/// it, so reading the end of a 64 MB chapter inflates about a megabyte, not 64.
extension ZipArchive {
    /// Whether reads of `entry` go through access points: deflated, clear (points of an
    /// encrypted entry would hold its plain text) and long enough to be worth it.
    static func usesAccessPoints(_ entry: ZipEntry) -> Bool {
        entry.compressionMethod == 8 && !entry.isEncrypted && entry.size >= DeflateAccessIndex.minimumEntrySize
    }

    /// Uncompressed bytes inflated so far for reads of this archive's compressed entries
    /// (diagnostics: tests and measurements check how much a read cost).
    public var inflatedByteCount: UInt64 {
        state.withLock { $0.inflatedBytes }
    }

    /// How many access points are known for `entry` (diagnostics).
    public func accessPointCount(of entry: ZipEntry) -> Int {
        state.withLock { $0.accessIndexes[entry.index]?.points.count ?? 0 }
    }

    /// A cursor at or before `offset`: an open one when it is past the last point before
    /// `offset`, else a new one from that point (from the start when there is none, or when
    /// the point does not check out: then the points go).
    func cursor(for entry: ZipEntry, at offset: UInt64, state: inout State) throws(ZipError) -> RawDeflateCursor {
        let point = state.accessIndexes[entry.index]?.point(atOrBefore: offset)
        let open = state.deflateCursors.last { $0.entry.index == entry.index && $0.position <= offset }
        if let open, open.position >= point?.outputOffset ?? 0 { return open }
        var cursor: RawDeflateCursor
        do throws(ZipError) {
            cursor = try openCursor(entry, start: point, state: &state)
        } catch {
            // A point that does not check out (or cannot be reached) goes; the read starts over.
            guard point != nil else { throw error }
            state.accessIndexes[entry.index] = nil
            state.storeSaved.remove(entry.index)
            if let pointStore, let archivePath, let key = ZipAccessPointStore.Key(archivePath: archivePath, entry: entry) {
                pointStore.remove(key)
            }
            if let open { return open }
            cursor = try openCursor(entry, start: nil, state: &state)
        }
        state.deflateCursors.append(cursor)
        if state.deflateCursors.count > State.maxCursors { state.deflateCursors.removeFirst() }
        return cursor
    }

    func openCursor(_ entry: ZipEntry, start: DeflateAccessPoint?, state: inout State) throws(ZipError) -> RawDeflateCursor {
        let file = try state.open(entry, flags: zip_flags_t(ZIP_FL_COMPRESSED))
        let cursor = try RawDeflateCursor(entry: entry, file: file, start: start)
        let index = state.accessIndexes[entry.index] ?? DeflateAccessIndex()
        cursor.recording = !index.complete
        cursor.recordFloor = index.frontier
        state.inflatedBytes += cursor.inflated
        cursor.counted = cursor.inflated
        return cursor
    }

    /// Takes the points and byte count a cursor gathered. The points go to the store once
    /// they cover the whole entry and a whole read `verified` its CRC-32.
    func collect(_ cursor: RawDeflateCursor, state: inout State, verified: Bool) {
        state.inflatedBytes += cursor.inflated - cursor.counted
        cursor.counted = cursor.inflated
        let entry = cursor.entry
        var index = state.accessIndexes[entry.index] ?? DeflateAccessIndex()
        if cursor.recording {
            for point in cursor.recorded { index.append(point) }
            cursor.recorded.removeAll()
            if cursor.finished {
                index.complete = true
                cursor.recording = false
            }
            state.accessIndexes[entry.index] = index
        }
        guard verified, index.complete, state.storeSaved.insert(entry.index).inserted,
              let pointStore, let archivePath,
              let key = ZipAccessPointStore.Key(archivePath: archivePath, entry: entry) else { return }
        pointStore.save(index, key: key, entry: entry)
    }

    /// Reads the stored points of `entry` once, when no whole read has recorded them here.
    func loadStoredPoints(_ entry: ZipEntry, state: inout State) {
        guard state.accessIndexes[entry.index]?.complete != true,
              state.storeLoaded.insert(entry.index).inserted,
              let pointStore, let archivePath,
              let key = ZipAccessPointStore.Key(archivePath: archivePath, entry: entry),
              let index = pointStore.load(key, entry: entry) else { return }
        state.accessIndexes[entry.index] = index
        state.storeSaved.insert(entry.index)
    }
}

import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reads of long deflated entries, inflated here from access points. A read takes its cursor
/// out of the shared ones and inflates in chunks, releasing the archive's lock between them:
/// the reader's background pass over a 64 MB chapter must not hold up a ranged read that the
/// first page waits for.
extension ZipArchive {
    /// What a long read inflates with the lock held at once (a few milliseconds).
    static let inflatingChunk = 2 << 20

    func readWholeInflating(_ entry: ZipEntry) throws(ZipError) -> Data {
        let cursor = try state.withLock { state throws(ZipError) in
            let cursor = try openCursor(entry, start: nil, state: &state)
            state.busyCursors.append(cursor)
            return cursor
        }
        let count = Int(entry.size)
        guard let buffer = malloc(max(count, 1))?.assumingMemoryBound(to: UInt8.self) else {
            release(cursor, keep: false)
            throw .tooLarge(entry.size)
        }
        do throws(ZipError) {
            let received = try readChunks(cursor, into: buffer, count: count)
            if received < count { throw .inconsistent("\(entry.path) is shorter than declared") }
            try state.withLock { state throws(ZipError) in
                guard cursor.isOpen else { throw .closed }
                try cursor.finish()
                // Points are kept only for an entry that passed its checks.
                collect(cursor, state: &state, verified: true)
            }
        } catch {
            release(cursor, keep: false)
            free(buffer)
            throw error
        }
        release(cursor, keep: false)
        return Data(bytesNoCopy: buffer, count: count, deallocator: .free)
    }

    func readInflating(_ entry: ZipEntry, _ range: Range<UInt64>) throws(ZipError) -> Data {
        let cursor = try state.withLock { state throws(ZipError) in
            loadStoredPoints(entry, state: &state)
            let taken = try self.cursor(for: entry, at: range.lowerBound, state: &state)
            // Its own until the read ends: no other read moves it meanwhile.
            state.deflateCursors.removeAll { $0 === taken }
            state.busyCursors.append(taken)
            return taken
        }
        let count = Int(range.count)
        guard let buffer = malloc(count)?.assumingMemoryBound(to: UInt8.self) else {
            release(cursor, keep: true)
            throw .tooLarge(UInt64(count))
        }
        do throws(ZipError) {
            while cursor.position < range.lowerBound {
                let before = cursor.position
                try state.withLock { state throws(ZipError) in
                    guard cursor.isOpen else { throw .closed }
                    try cursor.skip(to: min(range.lowerBound, before + UInt64(Self.inflatingChunk)))
                    collect(cursor, state: &state, verified: false)
                }
                if cursor.position == before { break }
            }
            let received = try readChunks(cursor, into: buffer, count: count)
            try state.withLock { state throws(ZipError) in
                guard cursor.isOpen else { throw .closed }
                // A cursor from the entry's start that reaches its end checks the CRC-32 as a
                // whole read does (the reader reads a chapter as a prefix, then the rest): its
                // points may then be kept.
                let verified = cursor.checksCRC && cursor.position == entry.size
                if verified { try cursor.finish() }
                collect(cursor, state: &state, verified: verified)
            }
            release(cursor, keep: true)
            return Data(bytesNoCopy: buffer, count: received, deallocator: .free)
        } catch {
            // Its position is unknown now: never reuse it.
            release(cursor, keep: false)
            free(buffer)
            throw error
        }
    }

    /// Reads `count` bytes in chunks, each under the lock; fewer only at the entry's end.
    private func readChunks(_ cursor: RawDeflateCursor, into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws(ZipError) -> Int {
        var received = 0
        while received < count {
            let want = min(Self.inflatingChunk, count - received)
            let got = try state.withLock { state throws(ZipError) -> Int in
                guard cursor.isOpen else { throw .closed }
                let got = try cursor.read(into: buffer + received, count: want)
                collect(cursor, state: &state, verified: false)
                return got
            }
            received += got
            if got < want { break }
        }
        return received
    }

    /// Ends a read's hold on its cursor: back among the shared ones (`keep`), or closed.
    private func release(_ cursor: RawDeflateCursor, keep: Bool) {
        state.withLock { state in
            state.inflatedBytes += cursor.inflated - cursor.counted
            cursor.counted = cursor.inflated
            guard state.busyCursors.contains(where: { $0 === cursor }) else { return }
            state.busyCursors.removeAll { $0 === cursor }
            guard keep, cursor.isOpen, !cursor.finished else {
                // libzip's sources count references without atomics: close under the lock.
                cursor.closeFile()
                return
            }
            state.deflateCursors.append(cursor)
            if state.deflateCursors.count > State.maxCursors { state.deflateCursors.removeFirst() }
        }
    }
}

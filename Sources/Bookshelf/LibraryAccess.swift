import Shared

/// Where long-running work (importing, indexing) sends its library reads and writes: straight
/// to a ``LibraryStore`` on a Dispatch thread (the command line, one process, one job), or
/// through the interface's one writer, ``Library``, so they take their turn with the reader's.
public protocol LibraryAccess: Sendable {
    /// Runs `body` with the store, off the cooperative pool, and returns its result.
    func perform<T: Sendable>(_ body: @escaping @Sendable (LibraryStore) throws(LibraryError) -> T) async throws(LibraryError) -> T
}

extension LibraryStore: LibraryAccess {
    public func perform<T: Sendable>(_ body: @escaping @Sendable (LibraryStore) throws(LibraryError) -> T) async throws(LibraryError) -> T {
        try await Blocking.attempt { () throws(LibraryError) -> T in try body(self) }
    }
}

extension Library: LibraryAccess {
    /// Runs `body` in its turn, after every read and write asked for before it.
    public func perform<T: Sendable>(_ body: @escaping @Sendable (LibraryStore) throws(LibraryError) -> T) async throws(LibraryError) -> T {
        try body(store)
    }
}

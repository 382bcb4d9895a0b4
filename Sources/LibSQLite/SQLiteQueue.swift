import CLecternSQLite
import Dispatch
import FoundationEssentials

/// One database file, opened once and shared: every store of the file (library, catalogs,
/// LCP) reads and writes through the same queue, which serialises the uses of its one
/// connection, so that writes are serial within the process (and, through SQLite's write lock
/// and busy timeout, with other processes).
///
/// The synchronous faces block the calling thread: call them from threads that may wait on
/// disk. The `async` faces run the same work on the queue's own Dispatch thread, off the
/// cooperative pool, and resume the caller when it is done.
// @unchecked: `database` and `migrated` are used only while `lock` is held.
public final class SQLiteQueue: @unchecked Sendable {
    /// The file's path, `":memory:"` for a private database.
    public let path: String
    private let database: SQLiteDatabase
    private let lock = SQLiteLock()
    /// The modules whose migrations this queue already brought up to date.
    private var migrated: Set<String> = []
    private let thread: DispatchQueue

    /// Opens (creating when missing, mode 0600) the database at `path` and applies the
    /// pending steps of `migrations`, all in one transaction.
    public init(path: String, migrations: [SQLiteMigrations] = []) throws(SQLiteError) {
        self.path = path
        database = try SQLiteDatabase(path: path)
        thread = DispatchQueue(label: "lectern.sqlite")
        try migrate(migrations)
    }

    /// Applies the pending steps of the modules not migrated yet through this queue, in one
    /// transaction; the modules already migrated cost nothing (a store made on an open queue
    /// calls this with its own module's steps).
    public func migrate(_ migrations: [SQLiteMigrations]) throws(SQLiteError) {
        try lock.withLock { () throws(SQLiteError) in
            let pending = migrations.filter { !migrated.contains($0.module) }
            guard !pending.isEmpty else { return }
            try database.applyMigrations(pending)
            migrated.formUnion(pending.map(\.module))
        }
    }

    /// Runs `body` with the connection, serialised with every other use (no transaction:
    /// each statement sees the latest committed data).
    @discardableResult
    public func read<T>(_ body: (SQLiteDatabase) throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try lock.withLock { () throws(SQLiteError) -> T in try body(database) }
    }

    /// Runs `body` in one IMMEDIATE transaction (the write lock is taken first, so two
    /// processes cannot interleave a check and an update): committed when it returns,
    /// rolled back when it throws.
    @discardableResult
    public func write<T>(_ body: (SQLiteDatabase) throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try lock.withLock { () throws(SQLiteError) -> T in
            do throws(SQLiteTransactionError<SQLiteError>) {
                return try database.transaction { () throws(SQLiteError) -> T in try body(database) }
            } catch {
                switch error {
                case .database(let failure), .body(let failure): throw failure
                }
            }
        }
    }

    /// ``read(_:)`` on the queue's own thread, off the cooperative pool.
    @discardableResult
    public func read<T: Sendable>(_ body: @escaping @Sendable (SQLiteDatabase) throws(SQLiteError) -> T) async throws(SQLiteError) -> T {
        try await onThread { () throws(SQLiteError) -> T in try self.read(body) }
    }

    /// ``write(_:)`` on the queue's own thread, off the cooperative pool.
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (SQLiteDatabase) throws(SQLiteError) -> T) async throws(SQLiteError) -> T {
        try await onThread { () throws(SQLiteError) -> T in try self.write(body) }
    }

    private func onThread<T: Sendable>(_ work: @escaping @Sendable () throws(SQLiteError) -> T) async throws(SQLiteError) -> T {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, SQLiteError>, Never>) in
            thread.async {
                do throws(SQLiteError) {
                    continuation.resume(returning: .success(try work()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}

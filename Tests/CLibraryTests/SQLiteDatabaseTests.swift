import Foundation
import LibSQLite
import Synchronization
import Testing
import TestSupport

@Suite struct SQLiteDatabaseTests {
    let migrations = [
        "CREATE TABLE counter (id TEXT PRIMARY KEY, value INTEGER NOT NULL CHECK (value >= 0))",
        "ALTER TABLE counter ADD COLUMN note TEXT",
    ]

    @Test func migratesOnceAndRecordsTheVersion() throws {
        let path = Fixtures.temporaryDirectory("sqlite") + "/db.sqlite"
        let database = try SQLiteDatabase(path: path)
        try database.migrate(migrations)
        #expect(database.userVersion == 2)
        try database.migrate(migrations)  // idempotent
        try database.run("INSERT INTO counter (id, value, note) VALUES (?, ?, ?)", ["a", 3, .text("x")])
        let rows = try database.query("SELECT id, value, note FROM counter")
        #expect(rows.count == 1)
        #expect(rows[0].string(0) == "a" && rows[0].int(1) == 3 && rows[0].string(2) == "x")
    }

    @Test func refusesADatabaseFromANewerSchema() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        try database.execute("PRAGMA user_version = 9")
        #expect(throws: SQLiteError.self) { try database.migrate(migrations) }
    }

    @Test func filesArePrivate() throws {
        let path = Fixtures.temporaryDirectory("sqlite") + "/db.sqlite"
        let database = try SQLiteDatabase(path: path)
        try database.migrate(migrations)
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(file)")
        }
        #expect(try database.query("PRAGMA journal_mode").first?.string(0) == "wal")
    }

    /// Opening a database never narrows the process's umask, even for a moment: a file another
    /// thread (or a child process) creates meanwhile keeps the mode it asked for.
    @Test func openingLeavesTheUmaskAlone() throws {
        let folder = Fixtures.temporaryDirectory("sqlite-umask")
        // Read without setting it (`umask()` can only be read by setting it): Linux's status file.
        func umaskNow() -> String? {
            (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8))?
                .split(separator: "\n").first { $0.hasPrefix("Umask:") }.map(String.init)
        }
        let before = try #require(umaskNow())
        // The databases open on a Dispatch thread (not a task: this test's loop holds a thread
        // of the cooperative pool, which may have no other free), and say when they are done,
        // whether they all opened or one failed.
        let finished = Mutex<Result<Void, SQLiteError>?>(nil)
        DispatchQueue.global().async {
            do throws(SQLiteError) {
                for index in 0..<2000 { _ = try SQLiteDatabase(path: folder + "/db\(index).sqlite") }
                finished.withLock { $0 = .success(()) }
            } catch {
                finished.withLock { $0 = .failure(error) }
            }
        }
        var seen: Set<String> = []
        while finished.withLock({ $0 }) == nil {
            if let now = umaskNow() { seen.insert(now) }
        }
        try finished.withLock { $0 }?.get()
        #expect(seen == [before], "the umask changed while databases opened: \(seen)")
    }

    @Test func transactionRollsBackWhenTheBodyThrows() throws {
        struct Refused: Error {}
        let database = try SQLiteDatabase(path: ":memory:")
        try database.migrate(migrations)
        try database.run("INSERT INTO counter (id, value) VALUES ('a', 5)")
        #expect(throws: SQLiteTransactionError<Refused>.self) {
            try database.transaction { () throws(Refused) in
                _ = try? database.run("UPDATE counter SET value = 0 WHERE id = 'a'")
                throw Refused()
            }
        }
        #expect(try database.query("SELECT value FROM counter").first?.int(0) == 5)
    }

    @Test func constraintViolationIsReported() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        try database.migrate(migrations)
        try database.run("INSERT INTO counter (id, value) VALUES ('a', 1)")
        do {
            try database.run("UPDATE counter SET value = value - 2 WHERE id = 'a'")
            Issue.record("the CHECK constraint must refuse a negative value")
        } catch {
            #expect(error.isConstraint)
        }
    }

    @Test func blobsAndNullsRoundTrip() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        try database.execute("CREATE TABLE t (b BLOB, n TEXT)")
        let bytes = Data([0, 1, 2, 255])
        try database.run("INSERT INTO t VALUES (?, ?)", [.blob(bytes), nil])
        let row = try #require(try database.query("SELECT b, n FROM t").first)
        #expect(row.data(0) == bytes)
        #expect(row.isNull(1))
    }
}

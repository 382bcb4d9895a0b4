import Foundation
import LibSQLite
import Testing
import TestSupport

/// The shared database queue: named migrations from several modules, applied once and all
/// together, serial writes, the async faces and the statement cache.
@Suite struct SQLiteQueueTests {
    let path = Fixtures.temporaryDirectory("sqlite-queue") + "/db.sqlite"

    static let shelf = SQLiteMigrations(module: "shelf", steps: [
        .init("1-books", "CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL)"),
        .init("2-notes", "ALTER TABLE books ADD COLUMN note TEXT"),
    ])
    static let counters = SQLiteMigrations(module: "counters", steps: [
        .init("1-counters", "CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL CHECK (value >= 0))"),
    ])

    func recorded(_ path: String) throws -> [String] {
        try SQLiteDatabase(path: path).query("SELECT name FROM lectern_migrations ORDER BY name").compactMap { $0.string(0) }
    }

    @Test func eachModulesStepsRunOnceAndAreRecordedByName() throws {
        do {
            let queue = try SQLiteQueue(path: path, migrations: [Self.shelf, Self.counters])
            try queue.write { database throws(SQLiteError) in
                try database.run("INSERT INTO books (title, note) VALUES ('A', 'n')")
            }
        }
        #expect(try recorded(path) == ["counters/1-counters", "shelf/1-books", "shelf/2-notes"])
        // Opening again (another process, a later run) runs nothing: the row is still there.
        let queue = try SQLiteQueue(path: path, migrations: [Self.shelf, Self.counters])
        #expect(try queue.read { database throws(SQLiteError) in try database.query("SELECT note FROM books").first?.string(0) } == "n")
    }

    @Test func aFailingStepLeavesNoStepOfAnyModuleApplied() throws {
        let broken = SQLiteMigrations(module: "broken", steps: [.init("1-oops", "CREATE TABLE books (x)")])
        #expect(throws: SQLiteError.self) { try SQLiteQueue(path: path, migrations: [Self.counters, Self.shelf, broken]) }
        let database = try SQLiteDatabase(path: path)
        #expect(try !database.hasTable("counters"))
        #expect(try !database.hasTable("books"))
        // Not even the record of steps: it is made in the same transaction.
        #expect(try !database.hasTable("lectern_migrations"))
    }

    @Test func anEarlierSchemeIsRecognisedNotRunAgain() throws {
        do {
            let database = try SQLiteDatabase(path: path)
            try database.execute("CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL); INSERT INTO books (title) VALUES ('kept')")
        }
        let recognised = SQLiteMigrations(module: "shelf", steps: Self.shelf.steps) { database throws(SQLiteError) in
            try database.hasTable("books") ? 1 : 0
        }
        let queue = try SQLiteQueue(path: path, migrations: [recognised])
        #expect(try recorded(path) == ["shelf/1-books", "shelf/2-notes"])
        #expect(try queue.read { database throws(SQLiteError) in try database.query("SELECT title, note FROM books").first?.values }
            == [.text("kept"), .null])
    }

    @Test func aFileWithAStepThisVersionDoesNotKnowIsRefused() throws {
        _ = try SQLiteQueue(path: path, migrations: [Self.shelf])
        try SQLiteDatabase(path: path).run("INSERT INTO lectern_migrations (name, applied_at) VALUES ('shelf/3-future', 0)")
        #expect(throws: SQLiteError.self) { try SQLiteQueue(path: path, migrations: [Self.shelf]) }
        // Another module's steps are not this module's business.
        _ = try SQLiteQueue(path: path, migrations: [Self.counters])
    }

    @Test func writesAreTransactionsAndTheAsyncFacesSerialiseThem() async throws {
        let queue = try SQLiteQueue(path: path, migrations: [Self.counters])
        try await queue.write { database throws(SQLiteError) in try database.run("INSERT INTO counters VALUES ('n', 0)") }
        // A write that throws halfway leaves nothing of itself.
        await #expect(throws: SQLiteError.self) {
            try await queue.write { database throws(SQLiteError) in
                try database.run("UPDATE counters SET value = 5")
                try database.run("UPDATE counters SET value = -1")
            }
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    try? await queue.write { database throws(SQLiteError) in
                        let value = try database.query("SELECT value FROM counters").first?.int(0) ?? 0
                        try database.run("UPDATE counters SET value = ?", [.integer(value + 1)])
                    }
                }
            }
        }
        #expect(try await queue.read { database throws(SQLiteError) in try database.query("SELECT value FROM counters").first?.int(0) } == 50)
    }

    @Test func statementsArePreparedOncePerConnection() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        try database.execute("CREATE TABLE t (x INTEGER)")
        for value in 0..<20 { try database.run("INSERT INTO t (x) VALUES (?)", [.integer(Int64(value))]) }
        #expect(database.cachedStatementCount == 1)
        #expect(try database.query("SELECT SUM(x) FROM t").first?.int(0) == 190)
        #expect(try database.query("SELECT SUM(x) FROM t").first?.int(0) == 190)
        #expect(database.cachedStatementCount == 2)
    }
}

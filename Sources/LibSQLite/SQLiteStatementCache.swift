import CLecternSQLite

/// The prepared statements of one connection, by SQL text: a statement the stores run again
/// and again (a position saved, a rights counter read) is compiled once.
///
/// A statement is taken out while it runs and given back after, so a statement run again
/// inside itself (a nested query of the same text) gets a fresh one instead of resetting the
/// one in use. Not thread-safe: used only by its connection, under the connection's queue.
final class SQLiteStatementCache {
    /// Above this many, a statement given back is finalised rather than kept (SQL built with
    /// varying text would otherwise grow the cache without end).
    static let capacity = 128
    private var statements: [String: OpaquePointer] = [:]

    var count: Int { statements.count }

    /// The cached statement of `sql`, removed from the cache while in use.
    func take(_ sql: String) -> OpaquePointer? {
        statements.removeValue(forKey: sql)
    }

    /// Resets `statement` and keeps it for the next use of `sql`.
    func give(back statement: OpaquePointer, for sql: String) {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        if statements[sql] == nil, statements.count < Self.capacity {
            statements[sql] = statement
        } else {
            sqlite3_finalize(statement)
        }
    }

    func finalizeAll() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements.removeAll()
    }
}

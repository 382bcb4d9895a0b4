import CLecternSQLite
import FoundationEssentials

/// A value bound to a statement parameter or read from a column.
public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

extension SQLiteValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(nilLiteral: ()) { self = .null }

    /// `.text`, or `.null` for nil.
    public static func text(_ value: String?) -> SQLiteValue { value.map(SQLiteValue.text) ?? .null }
    /// `.integer`, or `.null` for nil.
    public static func integer(_ value: Int?) -> SQLiteValue { value.map { .integer(Int64($0)) } ?? .null }
}

/// One row of a query result.
public struct SQLiteRow: Sendable, Hashable {
    public let values: [SQLiteValue]

    public func int(_ column: Int) -> Int? {
        if case .integer(let value) = values[column] { return Int(value) }
        return nil
    }

    public func double(_ column: Int) -> Double? {
        switch values[column] {
        case .real(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }

    public func string(_ column: Int) -> String? {
        if case .text(let value) = values[column] { return value }
        return nil
    }

    public func data(_ column: Int) -> Data? {
        switch values[column] {
        case .blob(let value): value
        case .text(let value): Data(value.utf8)
        default: nil
        }
    }

    public func isNull(_ column: Int) -> Bool { values[column] == .null }
}

/// A prepared statement; finalised when released, unless its connection's cache keeps it.
public final class SQLiteStatement {
    let statement: OpaquePointer
    /// Retained: a statement must not outlive its connection.
    let database: SQLiteDatabase
    private let finalizes: Bool

    init(statement: OpaquePointer, database: SQLiteDatabase, finalizes: Bool = true) {
        self.statement = statement
        self.database = database
        self.finalizes = finalizes
    }

    deinit {
        if finalizes { sqlite3_finalize(statement) }
    }

    func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(statement, index)
            case .integer(let number): code = sqlite3_bind_int64(statement, index, number)
            case .real(let number): code = sqlite3_bind_double(statement, index, number)
            case .text(let text): code = sqlite3_bind_text(statement, index, text, -1, lectern_sqlite_transient())
            case .blob(let data):
                code = data.withUnsafeBytes { bytes in
                    sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), lectern_sqlite_transient())
                }
            }
            guard code == SQLITE_OK else { throw database.lastError(code) }
        }
    }

    /// Advances to the next row; false when done.
    public func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(statement)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.lastError(code)
        }
    }

    /// The current row.
    public var row: SQLiteRow {
        let count = sqlite3_column_count(statement)
        var values: [SQLiteValue] = []
        values.reserveCapacity(Int(count))
        for column in 0..<count {
            switch sqlite3_column_type(statement, column) {
            case SQLITE_INTEGER: values.append(.integer(sqlite3_column_int64(statement, column)))
            case SQLITE_FLOAT: values.append(.real(sqlite3_column_double(statement, column)))
            case SQLITE_TEXT: values.append(.text(String(cString: sqlite3_column_text(statement, column))))
            case SQLITE_BLOB:
                let length = Int(sqlite3_column_bytes(statement, column))
                if let bytes = sqlite3_column_blob(statement, column), length > 0 {
                    values.append(.blob(Data(bytes: bytes, count: length)))
                } else {
                    values.append(.blob(Data()))
                }
            default: values.append(.null)
            }
        }
        return SQLiteRow(values: values)
    }
}

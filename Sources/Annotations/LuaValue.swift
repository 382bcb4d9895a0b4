/// A value of a Lua table literal: what KOReader's `metadata.*.lua` files hold.
enum LuaValue: Sendable, Hashable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case table(LuaTable)

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The number when it is a whole one an `Int` holds.
    var int: Int? {
        guard let number, number.rounded() == number, abs(number) < 9e15 else { return nil }
        return Int(number)
    }

    var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    var table: LuaTable? {
        if case .table(let value) = self { return value }
        return nil
    }

    subscript(key: String) -> LuaValue? { table?[key] }
}

/// A key of a Lua table.
enum LuaKey: Sendable, Hashable {
    case string(String)
    case number(Double)
    case bool(Bool)
}

/// A Lua table, its entries in source order (the last of duplicate keys wins on lookup, as
/// a Lua constructor would leave it).
struct LuaTable: Sendable, Hashable {
    struct Entry: Sendable, Hashable {
        var key: LuaKey
        var value: LuaValue
    }

    var entries: [Entry] = []

    subscript(key: String) -> LuaValue? {
        entries.last { $0.key == .string(key) }?.value
    }

    /// The values of the positive whole-number keys, in key order: the table as an array
    /// (KOReader writes arrays as `[1] = …, [2] = …`).
    var sequence: [LuaValue] {
        var numbered: [(Double, LuaValue)] = []
        for entry in entries {
            if case .number(let key) = entry.key, key >= 1, key.rounded() == key { numbered.append((key, entry.value)) }
        }
        return numbered.sorted { $0.0 < $1.0 }.map(\.1)
    }
}

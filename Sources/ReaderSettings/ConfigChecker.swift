/// Reads the values of `config.toml` by their expected type, and words what is wrong with one
/// (with its line) for ``ReaderConfig/warnings``.
struct ConfigChecker {
    /// The line of each key, by dotted path (``TOMLParser/parse(_:lines:)``).
    let lines: [String: Int]
    private var found: [(line: Int, text: String)] = []

    /// The warnings in the order of the file's lines.
    var warnings: [String] { found.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element.text) }

    init(lines: [String: Int]) { self.lines = lines }

    /// Adds a warning about the key at `path` (`reader.margin`), as the user wrote it.
    mutating func warn(_ path: String, _ message: String) {
        let number = lines[path] ?? lines[String(path.prefix { $0 != "." })] ?? 0
        let line = number > 0 ? " line \(number):" : ""
        var parts = path.split(separator: ".", maxSplits: 1).map(String.init)
        let key = parts.count == 2 ? "[\(parts.removeFirst())] \(parts[0])" : path
        found.append((number, "config.toml\(line) \(key): \(message)"))
    }

    mutating func string(_ value: TOMLValue?, _ path: String) -> String? {
        guard let value else { return nil }
        guard let string = value.string else { warn(path, "expected a quoted string"); return nil }
        return string
    }

    mutating func boolean(_ value: TOMLValue?, _ path: String) -> Bool? {
        guard let value else { return nil }
        guard let boolean = value.boolean else { warn(path, "expected true or false"); return nil }
        return boolean
    }

    mutating func table(_ value: TOMLValue?, _ path: String) -> [String: TOMLValue]? {
        guard let value else { return nil }
        guard let table = value.table else { warn(path, "expected a table ([\(path)])"); return nil }
        return table
    }

    /// A whole number within `range`; one outside it is brought inside, and reported.
    mutating func integer(_ value: TOMLValue?, _ path: String, in range: ClosedRange<Int>) -> Int? {
        guard let value else { return nil }
        guard let number = value.integer else {
            let shown = value.string.map { "\"\($0)\"" } ?? "this value"
            warn(path, "expected a whole number, not \(shown)")
            return nil
        }
        guard range.contains(number) else {
            let kept = min(max(number, range.lowerBound), range.upperBound)
            warn(path, "\(number) is not within \(range.lowerBound) to \(range.upperBound); using \(kept)")
            return kept
        }
        return number
    }

    /// Reports the keys of `table` Lectern does not know (a misspelt setting).
    mutating func unknownKeys(of table: [String: TOMLValue], in name: String?, known: Set<String>) {
        for key in table.keys.sorted() where !known.contains(key) {
            let path = name.map { $0 + "." + key } ?? key
            warn(path, "unknown setting (known: \(known.sorted().joined(separator: ", ")))")
        }
    }
}

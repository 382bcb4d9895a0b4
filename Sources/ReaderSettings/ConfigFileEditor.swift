/// Changes one setting in the text of `config.toml`, keeping everything else as the person
/// wrote it (comments, order, other keys, other tables).
enum ConfigFileEditor {
    /// `text` with `key = value` in table `table` (nil: the top level, before any table): the
    /// line whose key is exactly `key` is replaced, else the setting is added at the start of
    /// the table (a missing table is added at the end).
    static func setting(_ key: String, to value: String, inTable table: String?, in text: String) -> String {
        var lines = text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let line = "\(key) = \(value)"
        func tableName(_ line: String) -> String? {
            let trimmed = line.trimmed
            guard trimmed.hasPrefix("["), let end = trimmed.firstIndex(of: "]") else { return nil }
            return String(trimmed[trimmed.index(after: trimmed.startIndex)..<end]).trimmed
        }
        func isKey(_ candidate: String) -> Bool {
            guard let equals = candidate.firstIndex(of: "=") else { return false }
            let name = String(candidate[..<equals]).trimmed
            return name == key || name == "\"\(key)\""
        }
        // The section's lines: from after its header (or the start) to the next table.
        let start: Int
        if let table {
            guard let header = lines.firstIndex(where: { tableName($0) == table }) else {
                if let last = lines.last, !last.trimmed.isEmpty { lines.append("") }
                lines += ["[\(table)]", line]
                return lines.joined(separator: "\n") + "\n"
            }
            start = header + 1
        } else {
            start = 0
        }
        let end = lines[start...].firstIndex { tableName($0) != nil } ?? lines.count
        if let index = lines[start..<end].firstIndex(where: isKey) {
            lines[index] = line
        } else {
            lines.insert(line, at: start)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

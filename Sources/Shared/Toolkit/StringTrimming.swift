extension StringProtocol {
    /// The string without leading and trailing whitespace and newlines.
    public var trimmed: String {
        // Printable ASCII at both ends: nothing to trim, and no need to read grapheme clusters.
        var slice = Substring(self)
        if let first = slice.utf8.first, let last = slice.utf8.last, (0x21..<0x7F).contains(first), (0x21..<0x7F).contains(last) {
            return String(slice)
        }
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }
}

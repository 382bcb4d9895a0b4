extension StringProtocol {
    /// The string without leading and trailing whitespace and newlines.
    public var trimmed: String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }
}

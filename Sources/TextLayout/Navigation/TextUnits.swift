extension TextDocument {
    /// The text (block or table cell) holding `offset`, with the offset of its first cluster.
    func text(containing offset: Int) -> (offset: Int, text: InlineText)? {
        guard let index = blockIndex(containing: offset) else { return nil }
        let block = blocks[index]
        if let table = block.table {
            for row in table.rows {
                for cell in row where (cell.offset...(cell.offset + cell.text.count)).contains(offset) { return (cell.offset, cell.text) }
            }
            return nil
        }
        return (block.offset, block.text)
    }

    /// The word at `offset`: the clusters between the line-break opportunities around it
    /// (a Latin word with its punctuation, one ideograph), for extending a selection by word.
    /// A space gives an empty range at its offset.
    public func wordRange(containing offset: Int) -> Range<Int> {
        guard let (base, text) = text(containing: offset) else { return offset..<offset }
        let index = offset - base
        guard index < text.count, text.lead(at: index) != 0x20, text.lead(at: index) != 0x0A else { return offset..<offset }
        var start = index, end = index + 1
        while start > 0, text.breaks[start - 1] == .none, text.lead(at: start - 1) != 0x20, text.lead(at: start - 1) != 0x0A { start -= 1 }
        while end < text.count, text.breaks[end - 1] == .none, text.lead(at: end) != 0x20, text.lead(at: end) != 0x0A { end += 1 }
        // A break allowed after a space or a hyphen keeps that character with its word.
        return (base + start)..<(base + end)
    }

    /// The paragraph (block, or table cell) at `offset`, without its separator.
    public func paragraphRange(containing offset: Int) -> Range<Int> {
        guard let (base, text) = text(containing: offset) else { return offset..<offset }
        return base..<(base + text.count)
    }
}

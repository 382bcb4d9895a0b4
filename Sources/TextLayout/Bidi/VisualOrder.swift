/// Rules L1–L2 of the Unicode Bidirectional Algorithm on one line of clusters: the order in
/// which a terminal that does not reorder must receive them.
enum VisualOrder {
    /// The logical indices `range` of a paragraph with `levels`, in visual order (left to
    /// right). Trailing white space takes the paragraph level (L1), so it stays at the end of
    /// the line in reading order.
    static func indices(_ range: Range<Int>, levels: [Int8], leads: PackedScalars, paragraphLevel: Int8) -> [Int] {
        var lineLevels = Array(levels[range])
        var position = lineLevels.count - 1
        while position >= 0, leads[range.lowerBound + position] == 0x20 || leads[range.lowerBound + position] == 0x0A {
            lineLevels[position] = paragraphLevel
            position -= 1
        }
        var order = Array(range)
        guard let highest = lineLevels.max(), highest > 0 else { return order }
        let lowest = lineLevels.min() ?? 0
        let lowestOdd = lowest % 2 == 1 ? lowest : lowest + 1
        var level = highest
        while level >= lowestOdd {
            var start = 0
            while start < order.count {
                guard lineLevels[start] >= level else { start += 1; continue }
                var end = start
                while end < order.count, lineLevels[end] >= level { end += 1 }
                order[start..<end].reverse()
                lineLevels[start..<end].reverse()
                start = end
            }
            level -= 1
        }
        return order
    }
}

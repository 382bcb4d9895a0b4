/// The style of every cluster of a text, kept as runs: a paragraph has a handful of style
/// changes and thousands of clusters, so a style per cluster (8 bytes each) would be most of
/// a long chapter's memory.
struct StyleRuns: Sendable {
    /// The first cluster of each run, ascending, the first 0.
    private var starts: [Int] = []
    /// The style of each run.
    private var values: [TextStyle] = []
    /// The number of clusters.
    private(set) var count = 0

    init() {}

    /// Runs of `styles`, one per cluster.
    init(_ styles: [TextStyle]) {
        for style in styles { append(style) }
    }

    /// The style of cluster `index`.
    subscript(index: Int) -> TextStyle {
        precondition(index >= 0 && index < count, "style index out of range")
        // The last run whose start is at or before `index`.
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return values[low]
    }

    /// The end (exclusive) of the run containing cluster `index`.
    func runEnd(containing index: Int) -> Int {
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return low + 1 < starts.count ? starts[low + 1] : count
    }

    mutating func append(_ style: TextStyle) {
        if values.last != style {
            starts.append(count)
            values.append(style)
        }
        count += 1
    }

    mutating func append(contentsOf other: StyleRuns) {
        for (index, start) in other.starts.enumerated() {
            if index == 0, values.last == other.values[0] { continue }
            starts.append(count + start)
            values.append(other.values[index])
        }
        count += other.count
    }
}

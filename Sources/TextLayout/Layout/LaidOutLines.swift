import Synchronization

/// The lines of a laid-out document, made block by block when they are asked for and kept
/// only near where they were last asked for: a reader shows a screenful at a time, so the
/// lines of a long chapter never all live at once.
///
/// What is known for the whole document is small: how many lines each block takes (the page
/// index, ``LaidOutDocument/blockLines``). A block's lines depend only on the block, the kind of
/// the block before it and the layout options (see ``LayoutStream``), so any block can be laid
/// out again alone and gives the same lines.
public struct LaidOutLines: RandomAccessCollection, Sendable {
    private let document: TextDocument
    private let options: LayoutOptions
    /// Where the lines of each block begin (its blank lines and picture rows included); one
    /// more entry, the line count.
    private let segmentStarts: [Int]
    private let cache: LineCache

    init(document: TextDocument, options: LayoutOptions, segmentStarts: [Int], kept: [Int: [LayoutLine]]) {
        self.document = document
        self.options = options
        self.segmentStarts = segmentStarts
        cache = LineCache(kept)
    }

    /// The number of lines kept in memory now (for tests and measurements).
    var keptLineCount: Int { cache.keptLineCount }

    public var startIndex: Int { 0 }
    public var endIndex: Int { segmentStarts.last ?? 0 }

    public subscript(index: Int) -> LayoutLine {
        precondition(indices.contains(index), "line \(index) out of 0..<\(endIndex)")
        let block = segment(containing: index)
        return lines(ofBlock: block)[index - segmentStarts[block]]
    }

    /// The block whose lines include line `index`.
    private func segment(containing index: Int) -> Int {
        var low = 0, high = segmentStarts.count - 2
        while low < high {
            let middle = (low + high + 1) / 2
            if segmentStarts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The lines of block `block`, from the cache or laid out again.
    private func lines(ofBlock block: Int) -> [LayoutLine] {
        if let kept = cache.lines(ofBlock: block) { return kept }
        let made = LayoutEngine.segment(of: document, block: block, options: options)
        cache.keep(made, ofBlock: block)
        return made
    }
}

/// The blocks' lines kept by a ``LaidOutLines``: those last asked for, up to a bound, the
/// blocks farthest from the last one asked for going first.
final class LineCache: Sendable {
    /// About a hundred screens of lines.
    static let lineLimit = 6_000

    private struct State {
        var blocks: [Int: [LayoutLine]]
        var lineCount: Int
    }

    private let state: Mutex<State>

    init(_ kept: [Int: [LayoutLine]]) {
        state = Mutex(State(blocks: kept, lineCount: kept.values.reduce(0) { $0 + $1.count }))
    }

    /// The number of lines kept.
    var keptLineCount: Int { state.withLock { $0.lineCount } }

    func lines(ofBlock block: Int) -> [LayoutLine]? {
        state.withLock { $0.blocks[block] }
    }

    func keep(_ lines: [LayoutLine], ofBlock block: Int) {
        state.withLock { state in
            guard state.blocks[block] == nil else { return }
            state.blocks[block] = lines
            state.lineCount += lines.count
            guard state.lineCount > Self.lineLimit else { return }
            for far in state.blocks.keys.sorted(by: { abs($0 - block) > abs($1 - block) }) where far != block {
                state.lineCount -= state.blocks.removeValue(forKey: far)?.count ?? 0
                if state.lineCount <= Self.lineLimit * 3 / 4 { break }
            }
        }
    }
}

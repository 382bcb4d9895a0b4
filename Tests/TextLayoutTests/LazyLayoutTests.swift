import Testing
@testable import TextLayout

/// A long chapter's lines are laid out when asked for and kept only near the place asked for;
/// a line laid out again is the line the whole layout makes.
@Suite struct LazyLayoutTests {
    /// About 22,000 lines at 60 columns: more than three times what the cache keeps.
    static let html = (0..<3_000).map { index in
        switch index % 50 {
        case 0: "<h2 id=\"h\(index)\">Part \(index)</h2>"
        case 1: "<table><tr><td>cell \(index)</td><td>other</td></tr></table>"
        case 2: "<ul><li>item \(index)</li></ul><hr/>"
        default: "<p>" + String(repeating: "Paragraph \(index) of words in a row — ", count: 12) + "</p>"
        }
    }.joined()

    @Test func linesAskedForInAnyOrderAreThoseOfTheWholeLayout() throws {
        let document = try document(Self.html)
        let options = LayoutOptions(width: 60, justify: true)
        var expected: [String] = []
        LayoutEngine.forEachLine(of: document, options: options) { expected.append($0.text) }
        let laidOut = LayoutEngine.layout(document, options: options)
        #expect(laidOut.lineCount == expected.count)
        #expect(expected.count > 3 * LineCache.lineLimit)
        // Far apart, backwards, then forwards: blocks evicted and laid out again.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<400 {
            let index = Int.random(in: 0..<expected.count, using: &generator)
            #expect(laidOut.lines[index].text == expected[index], "line \(index)")
        }
        for index in stride(from: expected.count - 1, through: 0, by: -7) where laidOut.lines[index].text != expected[index] {
            Issue.record("line \(index) differs")
            break
        }
        #expect(laidOut.lines.map(\.text) == expected)
        #expect(laidOut.lines.keptLineCount <= LineCache.lineLimit + 200)
    }

    /// Places are found without the lines around them being kept: the line of a fragment and
    /// of a progression, and each block's lines, agree with the page index.
    @Test func placesAreFoundThroughThePageIndex() throws {
        let document = try document(Self.html)
        let laidOut = LayoutEngine.layout(document, options: LayoutOptions(width: 60))
        #expect(laidOut.lines.keptLineCount <= LineCache.lineLimit / 4 + 100, "only the first blocks are kept after layout")
        let line = try #require(laidOut.lineIndex(forFragment: "h2900"))
        #expect(laidOut.lines[line].text.hasPrefix("Part 2900"))
        let middle = laidOut.lineIndex(forProgression: 0.5)
        #expect(abs(laidOut.progression(ofLine: middle) - 0.5) < 0.01)
        for (block, range) in laidOut.blockLines.enumerated() where !range.isEmpty {
            #expect(laidOut.lines[range.lowerBound].blockIndex == block)
        }
    }
}

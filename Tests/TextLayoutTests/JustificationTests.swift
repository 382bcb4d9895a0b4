import Testing
@testable import TextLayout

/// Full justification: every line but a paragraph's last is exactly the width.
@Suite struct JustificationTests {
    static let text = """
        <p>Call me Ishmael. Some years ago—never mind how long precisely—having little or no money in my purse, \
        and nothing particular to interest me on shore, I thought I would sail about a little and see the watery \
        part of the world. It is a way I have of driving off the spleen and regulating the circulation.</p>
        <p>There now is your insular city of the Manhattoes, belted round by wharves as Indian isles by coral reefs.</p>
        <ul><li>A list item long enough to wrap over several lines when the column is narrow enough.</li></ul>
        """

    @Test(arguments: [20, 31, 40, 57, 80])
    func justifiedLinesAreExactlyTheWidthExceptTheLast(_ width: Int) throws {
        let laidOut = try layout(Self.text, width: width, justify: true)
        #expect(layoutProblems(laidOut) == [])
        for block in laidOut.blockLines {
            let lines = block.map { laidOut.lines[$0] }.filter { $0.kind == .text }
            for (number, line) in lines.enumerated() {
                let isLast = number == lines.count - 1
                if isLast {
                    #expect(!line.text.trimmingLeadingSpaces.contains("  "), "last line justified: \(line.text)")
                } else if line.text.trimmingLeadingSpaces.contains(" ") {
                    #expect(line.width == width, "width \(width): \(line.text)")
                }
            }
        }
    }

    @Test func justificationDoesNotChangeWhereLinesBreak() throws {
        let plain = try layout(Self.text, width: 40)
        let justified = try layout(Self.text, width: 40, justify: true)
        #expect(plain.lines.map(\.offsets) == justified.lines.map(\.offsets))
        #expect(plain.lines.map { $0.text.split(separator: " ") } == justified.lines.map { $0.text.split(separator: " ") })
    }

    @Test func linesEndingAtBreaksAndSingleWordsAreNotStretched() throws {
        let laidOut = try layout("<p>short line<br/>another line that wraps around here</p>", width: 20, justify: true)
        #expect(laidOut.textLines[0] == "short line")
        let cjk = try layout("<p>一二三四五六七八九十</p>", width: 7, justify: true)
        #expect(cjk.textLines == ["一二三", "四五六", "七八九", "十"])
    }

    @Test func headingsAndTablesAreNotJustified() throws {
        let laidOut = try layout("<h2>A heading that is long enough to wrap</h2>", width: 20, justify: true)
        #expect(laidOut.textLines.prefix(2) == ["A heading that is", "long enough to wrap"])
    }

    @Test func highlightsFollowTheWidenedGaps() throws {
        let laidOut = try layout("<p>alpha beta gamma delta epsilon zeta eta theta</p>", width: 30, justify: true)
        for match in laidOut.document.ranges(of: "gamma") + laidOut.document.ranges(of: "theta") {
            let pieces = laidOut.highlights(for: match)
            #expect(pieces.count == 1)
            #expect(cells(laidOut.lines[pieces[0].line], pieces[0].columns) == laidOut.document.text(in: match))
        }
    }
}

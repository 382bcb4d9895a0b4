import Testing
@testable import TextLayout

/// One test group per stage of the HTML conversion (see the `HTMLConverter+…` files): the
/// dispatch of elements, block building, inline styling, lists and tables.
@Suite struct ConverterStageTests {
    // MARK: Walking (HTMLConverter+Walking)

    @Test func ignoredHiddenAndPageBreakElementsAddNoText() throws {
        let document = try document("<p>a<script>x</script><span hidden=''>y</span><span epub:type='pagebreak' id='p1'/>b</p>")
        #expect(document.plainText == "ab\n")
        #expect(document.offset(ofFragment: "p1") == 1)
    }

    // MARK: Blocks (HTMLConverter+Blocks)

    @Test func blocksTileTheOffsetsWithOneSeparatorEach() throws {
        let document = try document("<h2>Head</h2><p>one</p><div><p id='x'>two</p></div><hr/>")
        #expect(document.blocks.map(\.kind) == [.heading(level: 2), .paragraph, .paragraph, .rule])
        var next = 0
        for block in document.blocks {
            #expect(block.offset == next)
            next = block.offset + block.length
        }
        #expect(document.length == next)
        #expect(document.anchors["x"]?.blocks == 2..<3)
        #expect(document.text(in: document.blocks[2].offsets) == "two\n")
    }

    // MARK: Inline styling (HTMLConverter+Inline)

    @Test func inlineElementsSetStylesAndGeneratedText() throws {
        let document = try document("<p><q>quoted</q> <i>it</i> <code>c</code> <img alt='map'/></p>")
        let text = document.blocks[0].text
        #expect(text.string == "“quoted” it c [image: map]")
        let italic = text.runs.first { $0.text == "it" }
        #expect(italic?.style.emphasis == .italic)
        #expect(text.runs.first { $0.text == "c" }?.style.emphasis == .code)
        #expect(text.runs.last?.style.role == .image)
    }

    // MARK: Lists (HTMLConverter+Lists)

    @Test func orderedListsCountFromTheirStartAndReverse() throws {
        let counted = try document("<ol start='4'><li>a</li><li>b</li></ol>")
        #expect(counted.blocks.map(\.text.string) == ["4. a", "5. b"])
        let reversed = try document("<ol reversed=''><li>a</li><li>b</li><li>c</li></ol>")
        #expect(reversed.blocks.map(\.text.string) == ["3. a", "2. b", "1. c"])
        #expect(counted.blocks.allSatisfy { $0.kind == .listItem && $0.hangingIndent == 3 })
    }

    // MARK: Tables (HTMLConverter+Tables)

    @Test func tablesBecomeGridsWithHeaderRowsAndCellOffsets() throws {
        let document = try document("""
            <table><thead><tr><th>h1</th><th>h2</th></tr></thead>
            <tbody><tr><td colspan='2'>wide</td></tr><tr><td>x</td><td>y</td></tr></tbody></table>
            """)
        let table = try #require(document.blocks.first?.table)
        #expect(table.headerRows == 1)
        #expect(table.columnCount == 2)
        #expect(table.rows.map { $0.map(\.text.string) } == [["h1", "h2"], ["wide"], ["x", "y"]])
        #expect(table.rows[1][0].columnSpan == 2)
        #expect(document.text(in: table.rows[2][1].offset..<(table.rows[2][1].offset + 1)) == "y")
    }
}

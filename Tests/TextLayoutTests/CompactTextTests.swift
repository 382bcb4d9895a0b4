import Testing
@testable import TextLayout

/// The compact storage of a document's text (``Clusters``, ``StyleRuns``) gives back exactly
/// the clusters and styles it was given, so offsets, search and copying are unchanged.
@Suite struct CompactTextTests {
    /// Single scalars, combining sequences, emoji sequences, CR LF, Hangul jamo, RTL.
    static let mixed: [Character] = ["a", "é", "e\u{301}", "👍🏽", "👨‍👩‍👧", "\r\n", "\u{1100}\u{1161}", "ש", "\n", "中", " "]

    @Test func clustersReadBackWhatWasAppended() {
        var clusters = Clusters()
        for character in Self.mixed { clusters.append(character, lead: character.unicodeScalars.first!.value) }
        #expect(Array(clusters) == Self.mixed)
        #expect(clusters.leads == Self.mixed.map { $0.unicodeScalars.first!.value })

        var other = Clusters()
        for character in Self.mixed.reversed() { other.append(character, lead: character.unicodeScalars.first!.value) }
        clusters.append(contentsOf: other)
        #expect(Array(clusters) == Self.mixed + Self.mixed.reversed())

        clusters.removeFirst()
        clusters.removeLast()
        #expect(Array(clusters) == Array((Self.mixed + Self.mixed.reversed()).dropFirst().dropLast()))
    }

    /// A cluster whose lead is not its only scalar (a mark given a no-break space to sit on)
    /// is kept whole.
    @Test func aClusterUnlikeItsLeadIsKeptWhole() {
        var clusters = Clusters()
        clusters.append("\u{A0}\u{301}", lead: 0xA0)
        clusters.append("x", lead: UInt32(("y" as Unicode.Scalar).value))
        #expect(Array(clusters) == ["\u{A0}\u{301}", "x"])
    }

    @Test func styleRunsGiveEachClusterItsStyle() {
        let bold = TextStyle(emphasis: .bold), link = TextStyle(role: .link, linkIndex: 3)
        let styles: [TextStyle] = [.plain, .plain, bold, bold, bold, link, .plain, link, link]
        let runs = StyleRuns(styles)
        #expect(runs.count == styles.count)
        #expect(styles.indices.map { runs[$0] } == styles)
        #expect(runs.runEnd(containing: 0) == 2)
        #expect(runs.runEnd(containing: 3) == 5)
        #expect(runs.runEnd(containing: 8) == 9)

        var joined = runs
        joined.append(contentsOf: StyleRuns([link, .plain]))
        #expect((0..<joined.count).map { joined[$0] } == styles + [link, .plain])
    }

    @Test func aStyleIsEightBytesAndKeepsLargeLinkIndices() {
        #expect(MemoryLayout<TextStyle>.stride == 8)
        var style = TextStyle()
        #expect(style.linkIndex == nil)
        style.linkIndex = 0
        #expect(style.linkIndex == 0)
        style.linkIndex = 1_000_000
        #expect(style.linkIndex == 1_000_000)
        style.linkIndex = nil
        #expect(style == TextStyle())
    }

    /// Through the whole converter: text with every kind of cluster and style changes reads
    /// back the same, and its runs are the maximal runs of one style.
    @Test func convertedTextAndRunsAreExact() throws {
        let document = try document("<p>a<b>é e\u{301}</b> 👍🏽 <a href='x.xhtml'>link</a> שלום 中文</p>")
        let text = document.blocks[0].text
        #expect(text.string == "aé e\u{301} 👍🏽 link שלום 中文")
        #expect(text.runs.map(\.text) == ["a", "é e\u{301}", " 👍🏽 ", "link", " שלום 中文"])
        #expect(text.runs[1].style.emphasis == .bold)
        #expect(document.link(of: text.runs[3].style)?.href == "OEBPS/x.xhtml")
        // Both spellings of é are found, as `Character` comparison (canonical equivalence) makes them one.
        #expect(document.ranges(of: "e\u{301}") == [1..<2, 3..<4])
    }

    /// `LayoutEngine.forEachLine` gives the same lines as `layout`, without keeping them.
    @Test func streamedLinesEqualTheLayout() throws {
        let html = "<h1>Title</h1><p>One two three four five six seven.</p><ol><li>first</li><li>second</li></ol>"
            + "<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table><hr/><pre>x  y</pre>"
        let options = LayoutOptions(width: 12)
        let document = try document(html)
        var streamed: [String] = []
        LayoutEngine.forEachLine(of: document, options: options) { streamed.append($0.text) }
        #expect(streamed == LayoutEngine.layout(document, options: options).texts)
        #expect(streamed.count > 10)
    }
}

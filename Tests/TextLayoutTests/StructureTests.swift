import Testing
@testable import TextLayout

/// Blocks and inline styles of hand-written documents.
@Suite struct StructureTests {
    @Test func headingsAreDistinguishedAndParagraphsIndentedAfterTheFirst() throws {
        let laidOut = try layout("""
            <h1>Title</h1><h2>Chapter</h2><h3>Section</h3>
            <p>First paragraph.</p><p>Second paragraph.</p><p>Third.</p>
            """, width: 30)
        #expect(laidOut.texts == ["Title", "═════", "", "Chapter", "───────", "", "Section", "",
                                  "First paragraph.", "  Second paragraph.", "  Third."])
        #expect(laidOut.lines[0].kind == .heading(level: 1))
        #expect(laidOut.lines[6].kind == .heading(level: 3))
        #expect(laidOut.lines[0].spans[0].style.emphasis.contains(.bold))
    }

    @Test func paragraphIndentAndSpacingAreConfigurable() throws {
        let document = try document("<p>One.</p><p>Two.</p>")
        let laidOut = LayoutEngine.layout(document, options: LayoutOptions(width: 20, paragraphIndent: 4, paragraphSpacing: 1))
        #expect(laidOut.texts == ["One.", "", "    Two."])
        let flat = LayoutEngine.layout(document, options: LayoutOptions(width: 20, paragraphIndent: 0, headingUnderlines: false))
        #expect(flat.texts == ["One.", "Two."])
    }

    @Test func emphasisBecomesSpanAttributes() throws {
        let laidOut = try layout("<p>plain <b>bold</b> <i>italic</i> <u>under</u> <code>x</code> <em><strong>both</strong></em></p>", width: 60)
        let spans = laidOut.lines[0].spans
        func style(_ text: String) -> TextStyle.Emphasis? { spans.first { $0.text == text }?.style.emphasis }
        #expect(style("bold") == .bold)
        #expect(style("italic") == .italic)
        #expect(style("under") == .underline)
        #expect(style("x") == .code)
        #expect(style("both") == [.bold, .italic])
        #expect(laidOut.lines[0].text == "plain bold italic under x both")
    }

    @Test func orderedAndNestedListsHaveMarkersAndHangingIndents() throws {
        let laidOut = try layout("""
            <p>Before.</p>
            <ol><li>First item that wraps onto a second line</li>
            <li>Second<ul><li>Nested bullet</li><li>Another<ul><li>Deeper</li></ul></li></ul></li>
            <li><p>Paragraph one.</p><p>Paragraph two.</p></li></ol>
            <ol start="9"><li>nine</li><li>ten</li></ol>
            <ol type="i"><li>a</li><li>b</li><li>c</li><li>d</li></ol>
            <p>After.</p>
            """, width: 24)
        #expect(laidOut.texts == [
            "Before.", "",
            "1. First item that wraps", "   onto a second line",
            "2. Second",
            "   ◦ Nested bullet",
            "   ◦ Another",
            "     ▪ Deeper",
            "3. Paragraph one.",
            "   Paragraph two.", "",
            "9.  nine", "10. ten", "",
            "i.   a", "ii.  b", "iii. c", "iv.  d", "",
            "After.",
        ])
        let marker = laidOut.lines[2].spans[0]
        #expect(marker.text == "1.")
        #expect(marker.style.role == .listMarker)
    }

    @Test func blockQuotesAreIndentedOnBothSides() throws {
        let laidOut = try layout("<p>Text.</p><blockquote><p>A quotation long enough to wrap twice.</p></blockquote><p>More.</p>", width: 20)
        #expect(laidOut.texts == ["Text.", "", "  A quotation long", "  enough to wrap", "  twice.", "", "More."])
        #expect(laidOut.lines.allSatisfy { $0.width <= 18 || $0.kind == .blank || !$0.text.hasPrefix("  ") })
    }

    @Test func tablesSizeColumnsToContentAndWrapCells() throws {
        let html = """
            <table><thead><tr><th>Name</th><th>Description</th></tr></thead>
            <tbody><tr><td>Ishmael</td><td>The narrator, who goes to sea</td></tr>
            <tr><td>Ahab</td><td>Captain</td></tr></tbody></table>
            """
        let wide = try layout(html, width: 60)
        #expect(wide.texts == [
            "Name    │ Description",
            "────────┼──────────────────────────────",
            "Ishmael │ The narrator, who goes to sea",
            "Ahab    │ Captain",
        ])
        let narrow = try layout(html, width: 24)
        #expect(layoutProblems(narrow) == [])
        #expect(narrow.texts == [
            "Name    │ Description",
            "────────┼───────────────",
            "Ishmael │ The narrator,",
            "        │ who goes to",
            "        │ sea",
            "Ahab    │ Captain",
        ])
        #expect(narrow.lines[0].spans.first?.style.emphasis.contains(.bold) == true)
        // Too narrow for the columns: each cell becomes a paragraph.
        let tiny = try layout(html, width: 5)
        #expect(layoutProblems(tiny) == [])
        #expect(tiny.textLines.contains("Ahab"))
        // Cell text is in the document text, in reading order.
        #expect(narrow.document.plainText == "Name\tDescription\nIshmael\tThe narrator, who goes to sea\nAhab\tCaptain\n")
    }

    @Test func tableColumnSpansAndRightToLeftTables() throws {
        let spanned = try layout("<table><tr><td colspan=\"2\">wide cell</td></tr><tr><td>a</td><td>b</td></tr></table>", width: 30)
        #expect(spanned.texts == ["wide cell", "a   │ b"])
        #expect(layoutProblems(spanned) == [])
        let rtl = try layout("<table dir=\"rtl\"><tr><td>أ</td><td>ب</td></tr></table>", width: 10)
        #expect(rtl.texts.map(\.unshaped) == ["    ب │  أ"])
    }

    @Test func horizontalRuleAndPreformattedText() throws {
        let laidOut = try layout("<p>a</p><hr/><pre>  x = 1\n  y = 2</pre><p>b</p>", width: 30)
        #expect(laidOut.texts == ["a", "", "          ──────────", "", "  x = 1", "  y = 2", "", "b"])
        #expect(laidOut.lines[2].kind == .rule)
        #expect(laidOut.lines[4].kind == .preformatted)
    }

    @Test func imagesBecomePlaceholdersWithAltOrFileName() throws {
        let laidOut = try layout("""
            <p><img src="../images/whale.png" alt="A sperm whale"/></p>
            <p><img src="../images/Illo%202.jpg"/> after</p>
            <div><svg><title>Map of the voyage</title></svg></div>
            <div><svg xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="cover.jpg"/></svg></div>
            <p><math alttext="x^2"><msup><mi>x</mi><mn>2</mn></msup></math> and <math><mi>y</mi></math></p>
            """, width: 60)
        #expect(laidOut.textLines == ["[image: A sperm whale]", "  [image: Illo 2.jpg] after", "",
                                      "[image: Map of the voyage]", "", "[image: cover.jpg]", "", "x² and y"].filter { !$0.isEmpty })
        let image = laidOut.lines[0].spans[0]
        #expect(image.style.role == .image)
        #expect(laidOut.document.link(of: image.style)?.href == "images/whale.png")
    }

    @Test func linksCarryResolvedTargets() throws {
        let document = try document("""
            <p><a href="chapter2.xhtml#s1">internal</a> <a href="https://example.org/">external</a> \
            <a href="#frag">local</a> <a href="../../../../etc/passwd">climbing</a></p>
            """, href: "OEBPS/text/chapter1.xhtml")
        #expect(document.links.map(\.href) == ["OEBPS/text/chapter2.xhtml#s1", "https://example.org/",
                                               "OEBPS/text/chapter1.xhtml#frag", "etc/passwd"])
        #expect(document.links.map(\.isExternal) == [false, true, false, false])
        let spans = LayoutEngine.layout(document, options: LayoutOptions(width: 80)).lines[0].spans
        #expect(spans.first { $0.text == "internal" }?.style.role == .link)
    }

    /// Markers without a number (`*`, `†`) get one each, in superscript, inside their link;
    /// numbered markers stay as they are.
    @Test func unnumberedNoteMarkersAreNumbered() throws {
        let document = try document("""
            <p>One<a epub:type="noteref" href="#a">*</a>, two<a epub:type="noteref" href="#b">*</a>,
            three<a epub:type="noteref" href="#c">†</a>, four<a epub:type="noteref" href="#d">4</a>.</p>
            <aside epub:type="footnote" id="a"><p>A.</p></aside>
            """)
        let laidOut = LayoutEngine.layout(document, options: LayoutOptions(width: 80))
        #expect(laidOut.textLines.first == "One*¹, two*², three†³, four4.")
        let second = try #require(laidOut.lines[0].spans.first { $0.text == "*²" })
        #expect(second.style.role == .noteReference)
        #expect(document.link(of: second.style)?.href.hasSuffix("#b") == true)
    }

    @Test func noteReferencesPointAtHiddenFootnotes() throws {
        let document = try document("""
            <p>Text with a note<a epub:type="noteref" href="#fn1">1</a> and more.</p>
            <aside epub:type="footnote" id="fn1"><p>The note <em>itself</em>.</p></aside>
            <p>Next paragraph.</p>
            <aside epub:type="sidebar"><p>A sidebar stays.</p></aside>
            """)
        let laidOut = LayoutEngine.layout(document, options: LayoutOptions(width: 80))
        #expect(laidOut.textLines == ["Text with a note1 and more.", "  Next paragraph.", "A sidebar stays."])
        let reference = try #require(laidOut.lines[0].spans.first { $0.text == "1" })
        #expect(reference.style.role == .noteReference)
        let target = try #require(document.link(of: reference.style))
        #expect(target.isNoteReference)
        let note = try #require(NoteResolver.note(withID: "fn1", in: document))
        #expect(note.plainText == "The note itself.\n")
        let popup = LayoutEngine.layout(note, options: LayoutOptions(width: 10))
        #expect(popup.textLines == ["The note", "itself."])
    }

    @Test func rubyIsParenthesizedOrDropped() throws {
        let html = "<p><ruby>山路<rp>(</rp><rt>やまみち</rt><rp>)</rp></ruby>を登る <ruby>H<rt>hydrogen</rt></ruby></p>"
        #expect(try layout(html, width: 80).textLines == ["山路（やまみち）を登る H(hydrogen)"])
        let dropped = LayoutEngine.layout(try document(html, options: ContentParseOptions(ruby: .dropped)), options: LayoutOptions(width: 80))
        #expect(dropped.textLines == ["山路を登る H"])
        // A ruby group is kept on one line.
        let narrow = try layout("<p>あいうえ<ruby>山路<rt>やまみち</rt></ruby>を</p>", width: 12)
        #expect(narrow.textLines == ["あいうえ", "山路（やまみ", "ち）を"] || narrow.textLines.first == "あいうえ")
    }

    @Test func scriptsStylesHeadAndHiddenContentAreIgnored() throws {
        let laidOut = try layout("""
            <html><head><title>The title</title><style>p { color: red }</style><script>alert(1)</script></head>
            <body><p>Visible.</p><p hidden="">Hidden.</p><div style="display: none">Gone.</div>
            <script>document.write("no")</script><p>Also visible.</p></body></html>
            """, width: 40)
        #expect(laidOut.textLines == ["Visible.", "  Also visible."])
        #expect(laidOut.document.title == "The title")
    }

    @Test func epubSwitchShowsTheFallback() throws {
        let laidOut = try layout("""
            <html xmlns:epub="http://www.idpf.org/2007/ops"><body><p>
            <epub:switch><epub:case required-namespace="http://www.xml-cml.org/schema">CML</epub:case>
            <epub:default>H<sub>2</sub>O</epub:default></epub:switch></p></body></html>
            """, width: 40)
        #expect(laidOut.textLines == ["H2O"])
    }

    @Test func languageAndAnchorsAreRecorded() throws {
        let document = try document("""
            <html xml:lang="fr"><body><section id="s1"><h1 id="title">Titre</h1><p>Un <span id="inline" lang="en">word</span>.</p></section></body></html>
            """)
        #expect(document.language == "fr")
        #expect(document.blocks[1].language == "fr")
        #expect(document.offset(ofFragment: "title") == 0)
        #expect(document.offset(ofFragment: "inline") == 9)
        #expect(document.anchors["s1"]?.blocks == 0..<2)
        #expect(document.text(in: 9..<13) == "word")
    }

    @Test func pageBreakMarkersAreNotShown() throws {
        let laidOut = try layout("<p>before <span epub:type=\"pagebreak\" id=\"p12\" title=\"12\">12</span>after</p>", width: 40)
        #expect(laidOut.textLines == ["before after"])
        #expect(laidOut.lineIndex(forFragment: "p12") == 0)
    }
}

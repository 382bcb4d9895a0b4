import Testing
@testable import TextLayout

/// The pre-pass that keeps element nesting within what libxml2 builds.
@Suite struct NestingFlattenerTests {
    func flattened(_ html: String, maxDepth: Int = 3) -> String? {
        Array(html.utf8).withUnsafeBufferPointer { NestingFlattener.flattened($0, maxDepth: maxDepth) }
            .map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func shallowDocumentsAreNotCopied() {
        #expect(flattened("<html><body><div><p>a</p></div></body></html>", maxDepth: 4) == nil)
        #expect(flattened("<p>" + String(repeating: "x", count: 10) + "</p>", maxDepth: 1) == nil)
    }

    @Test func tagsBeyondTheLimitAreRemovedWithTheirEndTags() {
        #expect(flattened("<a><b><c><d>x</d><e>y</e></c></b></a>z") == "<a><b><c>xy</c></b></a>z")
        #expect(flattened("<a><b><c><d><e>x</e></d>tail</c></b></a>") == "<a><b><c>xtail</c></b></a>")
        // Attributes, mixed case and namespace prefixes.
        #expect(flattened(#"<A><b x="1>2"><svg:c><D class='q'>x</d></svg:c></b></A>"#) == #"<A><b x="1>2"><svg:c>x</svg:c></b></A>"#)
    }

    @Test func whatIsNotATagIsNotCounted() {
        // Comments, CDATA, processing instructions, raw text, void and self-closing elements.
        let html = "<a><b><!-- <c><d><e> --><![CDATA[<c><d>]]><?pi <c>?><script>if (a<b) { '<c><d>' }</script>"
            + "<br><img src=x><c/><hr/>x</b></a>"
        #expect(flattened(html) == nil)
    }

    @Test func unclosedParagraphsAndListItemsAreNotDepth() {
        let paragraphs = String(repeating: "<p>para", count: 1000)
        #expect(flattened("<body>" + paragraphs + "</body>", maxDepth: 5) == nil)
        let items = "<ul>" + String(repeating: "<li>item", count: 1000) + "</ul>"
        #expect(flattened(items, maxDepth: 5) == nil)
        let table = "<table>" + String(repeating: "<tr><td>a<td>b<th>c", count: 500) + "</table>"
        #expect(flattened(table, maxDepth: 5) == nil)
        let definitions = "<dl>" + String(repeating: "<dt>term<dd>definition", count: 500) + "</dl>"
        #expect(flattened(definitions, maxDepth: 5) == nil)
    }

    @Test func strayEndTagsAreIgnoredAndAMatchClosesWhatItContains() {
        #expect(flattened("</x></y><a><b>x</q></b></a>") == nil)
        // </a> closes the unclosed b and c: the d after it is at depth 1 again.
        #expect(flattened("<a><b><c>x</a><d>y</d>") == nil)
    }
}

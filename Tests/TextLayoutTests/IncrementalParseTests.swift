import Foundation
import Shared
import Testing
import TestSupport
@testable import TextLayout

/// The incremental parse (libxml2's push parser, the tree released as it is converted) gives
/// the same document as the whole-document parse, on every chapter of the samples and on
/// generated chapters many parser slices long.
@Suite struct IncrementalParseTests {
    @Test(arguments: [
        "epub/idpf-wasteland.epub", "epub/idpf-kusamakura-preview.epub", "epub/idpf-regime-anticancer-arabic.epub",
        "epub/idpf-childrens-literature.epub", "epub/epubjs-alice.epub", "epub/idpf-moby-dick.epub",
        "epub/idpf-hefty-water.epub", "epub/w3c-cnt-mathml-support.epub", "epub/debian-live-manual.en.epub",
        "epub/idpf-sous-le-vent.epub", "epub/w3c-pkg-spine-progression_rtl.epub", "epub/w3c-mol-navigation.epub",
        "webpub/readium-mobydick.webpub",
    ])
    func everySampleChapterConvertsAlike(_ sample: String) async throws {
        let publication = try await openSample(sample)
        defer { publication.close() }
        var compared = 0
        for link in publication.readingOrder + publication.resources
        where link.mediaType?.matches(MediaType("application/xhtml+xml")) == true || link.mediaType?.matches(MediaType("text/html")) == true {
            let resource = publication.get(link)
            defer { resource.close() }
            guard case .success(let data) = resource.read() else { continue }
            try expectSameConversion(Array(data), href: link.href)
            compared += 1
        }
        #expect(compared > 0)
    }

    /// A chapter of a few MB: blocks cut across parser slices, text split between slices,
    /// a wrapper `<div>` around everything, tables, lists, notes and preformatted text.
    @Test func aChapterManySlicesLongConvertsAlike() throws {
        var html = "<html><head><title>Long</title></head><body><div id=\"all\"><section>"
        var index = 0
        while html.utf8.count < 400_000 {  // several of the push parser's 64 KB slices
            index += 1
            switch index % 7 {
            case 0: html += "<table><tr><th>h\(index)</th><td>cell <b>\(index)</b></td></tr><tr><td colspan=\"2\">wide</td></tr></table>"
            case 1: html += "<ol start=\"\(index)\"><li>one</li><li value=\"9\">two <i>it</i></li><li><p>para</p></li></ol>"
            case 2: html += "<p>Note<a epub:type=\"noteref\" href=\"#n\(index)\">*</a> here.</p><aside epub:type=\"footnote\" id=\"n\(index)\"><p>Note \(index).</p></aside>"
            case 3: html += "<pre>\n  code \(index)\n\n    indented &amp; kept   </pre>"
            case 4: html += "<div>inline text \(index) <span id=\"s\(index)\">span</span></div>"
            default: html += "<p id=\"p\(index)\">" + String(repeating: "Word\(index) café naïve — ", count: 40) + "</p>\n"
            }
        }
        html += "</section></div></body></html>"
        try expectSameConversion(Array(html.utf8), href: "OEBPS/long.xhtml")
        let document = try ContentDocumentParser.parse(html: Array(html.utf8), href: "OEBPS/long.xhtml")
        #expect(document.blocks.count > index / 2)
        #expect(document.title == "Long")
    }

    /// Tag soup: unclosed paragraphs and list items, stray end tags, text after `</html>`.
    @Test func tagSoupConvertsAlike() throws {
        var html = "<body><p>first<p>second<ul><li>a<li>b</ul></span><div><p>in div</div>"
        for index in 0..<2_000 { html += "<p>soup \(index)<b>bold" }
        html += "</body></html>trailing text"
        try expectSameConversion(Array(html.utf8), href: "soup.html")
    }

    func expectSameConversion(_ bytes: [UInt8], href: String) throws {
        let incremental = try ContentDocumentParser.parse(html: bytes, href: href)
        let whole = try ContentDocumentParser.parseWholeDocument(html: bytes, href: href)
        let left = fingerprint(incremental), right = fingerprint(whole)
        #expect(left.count == right.count, "\(href): \(left.count) vs \(right.count) lines")
        if let first = (0..<max(left.count, right.count)).first(where: { left.indices.contains($0) != right.indices.contains($0) || left[$0] != right[$0] }) {
            let show = { (lines: [String]) in lines.indices.contains(first) ? lines[first] : "(none)" }
            Issue.record("\(href): first difference at line \(first):\n\(show(left))\n\(show(right))")
        }
    }

    /// Everything a conversion decides, one line per item, in a stable order.
    func fingerprint(_ document: TextDocument) -> [String] {
        var lines = ["title \(document.title ?? "-") language \(document.language ?? "-")"]
        for block in document.blocks {
            lines.append("\(block.kind) \(block.offsets) indents \(block.startIndent) \(block.endIndent) \(block.hangingIndent) "
                + "space \(block.spaceBefore) \(block.language ?? "-") \(block.direction)")
            let texts = [block.text] + (block.table.map { $0.rows.flatMap { $0 }.map(\.text) } ?? [])
            for text in texts {
                lines.append(text.runs.map { "[\($0.text)|\($0.style)]" }.joined() + " \(text.breaks) \(text.widths) \(String(describing: text.levels))")
            }
            if let table = block.table {
                lines.append("table \(table.headerRows) \(table.direction) " + table.rows.map { $0.map { "\($0.isHeader) \($0.columnSpan) \($0.offset)" }.joined(separator: ",") }.joined(separator: ";"))
            }
        }
        lines += document.links.map { String(describing: $0) }
        lines += document.anchors.keys.sorted().map { "anchor \($0) \(document.anchors[$0]!)" }
        lines += document.images.map { String(describing: $0) }
        for id in document.notes.keys.sorted() {
            lines.append("note \(id)")
            lines += fingerprint(document.notes[id]!)
        }
        return lines
    }
}

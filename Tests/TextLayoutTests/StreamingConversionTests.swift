import Foundation
import Shared
import Testing
import TestSupport
@testable import TextLayout

/// A conversion that hands its blocks on as it makes them (``ContentDocumentParser/forEachBlock``,
/// ``LayoutStream``) gives the same blocks and lines as converting the whole document, and a
/// reader's first part of a chapter is the beginning of the whole chapter.
@Suite struct StreamingConversionTests {
    @Test(arguments: [
        "epub/idpf-wasteland.epub", "epub/idpf-childrens-literature.epub", "epub/epubjs-alice.epub",
        "epub/idpf-regime-anticancer-arabic.epub", "epub/w3c-cnt-mathml-support.epub", "epub/debian-live-manual.en.epub",
        "webpub/readium-mobydick.webpub",
    ])
    func streamedBlocksAndLinesAreThoseOfTheWholeDocument(_ sample: String) async throws {
        let publication = try await openSample(sample)
        defer { publication.close() }
        let loader = ContentDocumentLoader(publication: publication)
        var compared = 0
        for link in publication.readingOrder where link.mediaType?.isHTML == true {
            let whole = try loader.load(link)
            var streamed = try loader.forEachBlock(of: link) { _, _, _ in }
            #expect(streamed.blocks.isEmpty)
            streamed = try streamedDocument(loader, link)
            #expect(IncrementalParseTests().fingerprint(streamed) == IncrementalParseTests().fingerprint(whole), "\(link.href)")
            #expect(streamedLines(whole, width: 57) == LayoutEngine.layout(whole, options: LayoutOptions(width: 57)).lines.map(\.text))
            compared += 1
        }
        #expect(compared > 0)
    }

    /// A generated chapter many parser slices long, with tables (whose cells gather blocks
    /// that are not final), lists, notes, images and anchors on wrappers.
    @Test func aLongChapterStreamsAlike() throws {
        let html = Self.longChapter(minimumBytes: 300_000)
        let whole = try ContentDocumentParser.parse(html: Array(html.utf8), href: "OEBPS/long.xhtml")
        var blocks: [TextBlock] = []
        var images: [TextDocument.ImageReference] = []
        var indices: [Int] = []
        var rest = try ContentDocumentParser.forEachBlock(html: Array(html.utf8), href: "OEBPS/long.xhtml") { block, index, found in
            blocks.append(block)
            indices.append(index)
            images += found
        }
        #expect(indices == Array(0..<whole.blocks.count))
        #expect(!images.isEmpty)
        rest.blocks = blocks
        rest.images = images
        #expect(IncrementalParseTests().fingerprint(rest) == IncrementalParseTests().fingerprint(whole))
    }

    /// The first part is told once, holds at least the length asked for, and is the whole
    /// document's beginning: the same blocks at the same offsets, so a place found in it is
    /// the same place in the whole chapter.
    @Test func theFirstPartIsTheBeginningOfTheWholeChapter() throws {
        let html = Self.longChapter(minimumBytes: 300_000)
        var parts: [TextDocument] = []
        let whole = try ContentDocumentParser.parse(html: Array(html.utf8), href: "OEBPS/long.xhtml", firstPartLength: 5_000) {
            parts.append($0)
        }
        #expect(parts.count == 1)
        let part = try #require(parts.first)
        #expect(part.length >= 5_000)
        #expect(part.length < whole.length / 4)
        #expect(part.title == "Long")
        let partPrint = IncrementalParseTests().fingerprint(part).filter { !$0.hasPrefix("anchor") && !$0.hasPrefix("note") }
        let wholePrint = IncrementalParseTests().fingerprint(whole)
        #expect(Array(wholePrint.prefix(part.blocks.count + 1)).count == part.blocks.count + 1)
        for (index, block) in part.blocks.enumerated() {
            #expect(block.offsets == whole.blocks[index].offsets)
            #expect(block.text.string == whole.blocks[index].text.string)
        }
        #expect(partPrint.first == wholePrint.first)
        // Nothing is told for a chapter shorter than asked.
        var told = false
        _ = try ContentDocumentParser.parse(html: Array("<p>short</p>".utf8), href: "a.xhtml", firstPartLength: 5_000) { _ in told = true }
        #expect(!told)
    }

    func streamedDocument(_ loader: ContentDocumentLoader, _ link: Link) throws -> TextDocument {
        var blocks: [TextBlock] = []
        var images: [TextDocument.ImageReference] = []
        var rest = try loader.forEachBlock(of: link) { block, _, found in
            blocks.append(block)
            images += found
        }
        rest.blocks = blocks
        rest.images = images
        return rest
    }

    /// The lines a ``LayoutStream`` gives for the blocks of `document`, one block at a time.
    func streamedLines(_ document: TextDocument, width: Int) -> [String] {
        var stream = LayoutStream(options: LayoutOptions(width: width))
        var lines: [LayoutLine] = []
        for (index, block) in document.blocks.enumerated() {
            stream.append(block, index: index, images: document.images.filter { $0.blockIndex == index }, to: &lines)
        }
        return lines.map(\.text)
    }

    static func longChapter(minimumBytes: Int) -> String {
        var html = "<html><head><title>Long</title></head><body><div id=\"all\"><section id=\"s\">"
        var index = 0
        while html.utf8.count < minimumBytes {
            index += 1
            switch index % 6 {
            case 0: html += "<table><tr><th>h\(index)</th><td><p>cell</p><p><b>\(index)</b></p></td></tr></table>"
            case 1: html += "<ol><li>one</li><li><p>para <img src=\"i\(index).png\" alt=\"pic\"/></p></li></ol>"
            case 2: html += "<p>Note<a epub:type=\"noteref\" href=\"#n\(index)\">*</a>.</p><aside epub:type=\"footnote\" id=\"n\(index)\"><p>N \(index).</p></aside>"
            case 3: html += "<div id=\"d\(index)\"><p>in div</p><p>two <img src=\"j\(index).png\" alt=\"\"/></p></div>"
            default: html += "<p id=\"p\(index)\">" + String(repeating: "Word\(index) café — ", count: 30) + "</p>\n"
            }
        }
        return html + "</section></div></body></html>"
    }
}

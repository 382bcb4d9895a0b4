import Foundation
import Testing
@testable import TextLayout

/// Real books are tag soup: the converter never crashes, never hangs, and keeps the text.
@Suite struct MalformedHTMLTests {
    @Test func unclosedTagsAndStrayEndTags() throws {
        let laidOut = try layout("<p>one <b>bold <i>both</p></p></b><p>two</div></span><p>three", width: 40)
        #expect(laidOut.textLines == ["one bold both", "  two", "  three"])
    }

    @Test func htmlEntitiesAreDecoded() throws {
        let laidOut = try layout("<p>caf&eacute;&nbsp;&mdash; &rsquo;quoted&lsquo; &amp; &lt;tag&gt; &#x1F433; &#169; &unknown;</p>", width: 80)
        #expect(laidOut.textLines == ["café — ’quoted‘ & <tag> 🐳 © &unknown;"])
    }

    @Test func xmlStyleEmptyElementsDoNotSwallowTheirSiblings() throws {
        let laidOut = try layout("<p><a id=\"page5\"/>Text after the anchor.<span/> More.</p>", width: 80)
        #expect(laidOut.textLines == ["Text after the anchor. More."])
        #expect(laidOut.lines[0].spans.allSatisfy { $0.style.role == .text })
    }

    @Test func deepNestingIsBounded() throws {
        // Within libxml2's depth limit (256) the text is kept, beyond the converter's own
        // limit too (it flattens the deepest elements); past the flattener's limit the tags
        // beyond it are dropped, so nothing after the deep part is lost (libxml2 used to stop
        // parsing there, silently).
        let moderate = String(repeating: "<div><span>", count: 120) + "deep text" + String(repeating: "</span></div>", count: 120)
        #expect(try layout(moderate, width: 40).textLines == ["deep text"])
        for depth in [300, 100_000] {
            let html = "<p>before</p>" + String(repeating: "<div><span>", count: depth) + "deep text"
                + String(repeating: "</span></div>", count: depth) + "<p>after</p>"
            let laidOut = try layout(html, width: 40)
            #expect(laidOut.textLines == ["before", "deep text", "after"], "depth \(depth)")
            #expect(layoutProblems(laidOut) == [])
        }
        // Text at every level, and siblings after the deepest point, all stay in order.
        let levels = (0..<400).map { "<div>\($0) " }.joined() + String(repeating: "</div>", count: 400) + "<p>end</p>"
        let words = try document(levels).plainText.split(whereSeparator: \.isWhitespace).map(String.init)
        #expect(words == (0..<400).map(String.init) + ["end"])
        let lists = String(repeating: "<ul><li>item", count: 5_000)
        let laidOut = try layout(lists, width: 30)
        #expect(layoutProblems(laidOut) == [])
        #expect(laidOut.lineCount > 0)
    }

    @Test func deepNestingOffTheMainThreadDoesNotExhaustATaskStack() async throws {
        let html = String(repeating: "<blockquote><ol><li><table><tr><td>", count: 2_000) + "x"
        let count = try await Task.detached { try layout(html, width: 80).lineCount }.value
        #expect(count > 0)
    }

    @Test func emptyAndBlankDocumentsGiveEmptyLayouts() throws {
        for source in ["", "   \n", "<html></html>", "<html><body></body></html>", "<p></p><div>  </div>"] {
            let document = try ContentDocumentParser.parse(html: Array(source.utf8), href: "a.xhtml")
            let laidOut = LayoutEngine.layout(document, options: LayoutOptions(width: 40))
            #expect(laidOut.lineCount == 0, "\(source)")
            #expect(laidOut.lineIndex(forProgression: 0.5) == 0)
            #expect(laidOut.locator(forLine: 0).href == "a.xhtml")
        }
    }

    @Test func binaryGarbageDoesNotCrash() throws {
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<50 {
            let bytes = (0..<Int.random(in: 1...4_000, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if let document = try? ContentDocumentParser.parse(html: bytes, href: "x.xhtml") {
                #expect(layoutProblems(LayoutEngine.layout(document, options: LayoutOptions(width: 17))) == [])
            }
        }
    }

    @Test func invalidUTF8AndControlCharactersAreReplacedOrStripped() throws {
        let bytes: [UInt8] = Array("<p>a".utf8) + [0xFF, 0xFE, 0xC3] + Array("b\u{1}\u{1B}c</p>".utf8)
        let document = try ContentDocumentParser.parse(html: bytes, href: "x.xhtml")
        let text = LayoutEngine.layout(document, options: LayoutOptions(width: 40)).textLines.joined()
        #expect(text.hasPrefix("a") && text.hasSuffix("bc"))
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 })
    }

    @Test func declaredEncodingsAreHonoured() throws {
        let latin1: [UInt8] = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><html><body><p>caf".utf8) + [0xE9] + Array("</p></body></html>".utf8)
        #expect(LayoutEngine.layout(try ContentDocumentParser.parse(html: latin1, href: "a.xhtml"), options: LayoutOptions(width: 40)).textLines == ["café"])
        let meta: [UInt8] = Array("<html><head><meta charset=\"windows-1252\"/></head><body><p>".utf8) + [0x93, 0x41, 0x94] + Array("</p></body></html>".utf8)
        #expect(LayoutEngine.layout(try ContentDocumentParser.parse(html: meta, href: "a.xhtml"), options: LayoutOptions(width: 40)).textLines == ["“A”"])
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in "<p>日本</p>".utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(LayoutEngine.layout(try ContentDocumentParser.parse(html: utf16, href: "a.xhtml"), options: LayoutOptions(width: 40)).textLines == ["日本"])
    }

    @Test func externalEntitiesAndEntityBombsAreInert() throws {
        let source = """
            <?xml version="1.0"?><!DOCTYPE html [<!ENTITY xxe SYSTEM "file:///etc/passwd">\
            <!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>\
            <html><body><p>x&xxe;y&c;z</p></body></html>
            """
        let document = try ContentDocumentParser.parse(html: Array(source.utf8), href: "a.xhtml")
        let text = document.plainText
        #expect(!text.contains("root:"))
        #expect(text.count < 200)
    }

    @Test func hugeAttributeAndTextNodesAreHandled() throws {
        let long = String(repeating: "word ", count: 50_000)
        let laidOut = try layout("<p title=\"\(String(repeating: "t", count: 100_000))\">\(long)</p>", width: 80)
        #expect(layoutProblems(laidOut) == [])
        #expect(laidOut.lineCount > 3_000)
    }

    /// An internal DTD subset is dropped — it used to be shown as text at the top of the
    /// chapter — and its entities are never expanded (no billion laughs).
    @Test func internalDTDSubsetsAreNeitherShownNorExpanded() throws {
        let subset = """
            <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "xhtml11.dtd" [
              <!ENTITY author "Jane ] Doe">
              <!-- a comment with ] inside -->
              <!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
              <!ATTLIST p class CDATA #IMPLIED>
            ]>
            """
        for doctype in [subset, subset.lowercased()] {
            let html = "<?xml version=\"1.0\"?>\n" + doctype + "\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p>By &author; &lol2;.</p><p>After.</p></body></html>"
            let laidOut = try layout(html, width: 60)
            #expect(laidOut.textLines == ["By &author; &lol2;.", "  After."], "\(laidOut.textLines)")
        }
        // A DOCTYPE without a subset, and one whose identifier holds a bracket, are left alone.
        #expect(try layout("<!DOCTYPE html><html><body><p>Plain.</p></body></html>", width: 40).textLines == ["Plain."])
        let quoted = "<!DOCTYPE html SYSTEM \"a[b].dtd\"><html><body><p>Quoted.</p></body></html>"
        #expect(try layout(quoted, width: 40).textLines == ["Quoted."])
    }
}

/// A deterministic random generator, so a failure can be reproduced.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

}

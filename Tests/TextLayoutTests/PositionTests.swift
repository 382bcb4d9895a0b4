import Foundation
import Shared
import Testing
@testable import TextLayout

/// Keeping one's place: offsets, progressions and locators that survive a re-layout, search
/// matches mapped to cells, copy text.
@Suite struct PositionTests {
    static func chapter() async throws -> TextDocument {
        let publication = try await openSample("epub/idpf-moby-dick.epub")
        defer { publication.close() }
        return try ContentDocumentLoader(publication: publication).load(href: "OPS/chapter_001.xhtml")
    }

    @Test func progressionRoundTripAcrossWidthsLandsOnTheSameCharacter() async throws {
        let document = try await Self.chapter()
        let narrow = LayoutEngine.layout(document, options: LayoutOptions(width: 40))
        let wide = LayoutEngine.layout(document, options: LayoutOptions(width: 100, justify: true))
        #expect(narrow.lineCount > wide.lineCount)
        for index in stride(from: 0, to: narrow.lineCount, by: 7) {
            let line = narrow.lines[index]
            let progression = narrow.progression(ofLine: index)
            let found = wide.lineIndex(forProgression: progression)
            let offset = line.offsets.lowerBound
            #expect(wide.lines[found].offsets.contains(offset) || (line.offsets.isEmpty && wide.lines[found].offsets.lowerBound >= offset),
                    "line \(index) at offset \(offset) → wide line \(found) \(wide.lines[found].offsets)")
            // And back: the narrow line found from the wide line's progression is on the same paragraph.
            let back = narrow.lineIndex(forProgression: wide.progression(ofLine: found))
            #expect(narrow.lines[back].blockIndex == wide.lines[found].blockIndex || line.blockIndex == nil)
        }
    }

    @Test func locatorRoundTripUsesTheTextAroundThePlace() async throws {
        let document = try await Self.chapter()
        let narrow = LayoutEngine.layout(document, options: LayoutOptions(width: 40))
        let wide = LayoutEngine.layout(document, options: LayoutOptions(width: 120))
        let index = narrow.lineIndex(containing: try #require(document.ranges(of: "Whenever I find myself growing grim").first).lowerBound)!
        let locator = narrow.locator(forLine: index)
        #expect(locator.href == "OPS/chapter_001.xhtml")
        #expect(locator.text.highlight?.isEmpty == false)
        let progression = try #require(locator.locations.progression)
        #expect(progression > 0 && progression < 1)
        // Serialised and parsed back, as the bookshelf stores it.
        let restored = try #require(Locator(jsonString: locator.jsonString))
        let found = wide.lineIndex(for: restored)
        #expect(wide.lines[found].offsets.contains(narrow.lines[index].offsets.lowerBound))
        // With a wrong progression (the book changed), the text still finds the place.
        var moved = restored
        moved.locations.progression = 0.9
        #expect(wide.lines[wide.lineIndex(for: moved)].offsets.contains(narrow.lines[index].offsets.lowerBound))
    }

    @Test func fragmentsFindTheirLines() throws {
        let laidOut = try layout("<p>one</p><p id=\"x\">two</p><h2 id=\"h\">three</h2>", width: 20)
        #expect(laidOut.lineIndex(forFragment: "x") == 1)
        #expect(laidOut.lineIndex(forFragment: "h") == 3)
        #expect(laidOut.lineIndex(forFragment: "missing") == nil)
    }

    /// Two sections start at the same character: the place is named by the same id on every
    /// conversion (the first by name when they span the same blocks), not by whichever the
    /// anchors' dictionary lists first in that instance; a bookmark made twice compares equal.
    @Test func idsStartingTogetherNameThePlaceByTheInnermost() throws {
        let html = "<section id=\"frontmatter\"><section id=\"titlepage\"><h1>The Waste Land</h1><p>T.S. Eliot</p></section></section><p id=\"z\">more</p>"
        for width in 20...35 {
            let laidOut = try layout(html, width: width)
            #expect(laidOut.locator(forLine: 0).locations.fragments == ["frontmatter"])
        }
        // A heading's id inside its section: the innermost (fewest blocks) names the place.
        let nested = try layout("<section id=\"s\"><h1 id=\"a\">Title</h1><p>text</p></section>", width: 30)
        #expect(nested.locator(forLine: 0).locations.fragments == ["a"])
    }

    @Test func searchIsCaseInsensitiveAndMapsToCells() throws {
        let laidOut = try layout("<p>The whale. THE WHALE! the Whale, and Straße and ÉCOLE école.</p>", width: 12)
        let matches = laidOut.document.ranges(of: "whale")
        #expect(matches.count == 3)
        for match in matches {
            let pieces = laidOut.highlights(for: match)
            #expect(pieces.count == 1)
            #expect(cells(laidOut.lines[pieces[0].line], pieces[0].columns).lowercased() == "whale")
        }
        #expect(laidOut.document.ranges(of: "école").count == 2)
        #expect(laidOut.document.ranges(of: "STRASSE").isEmpty)  // folding is per character, not full case folding
        #expect(laidOut.document.ranges(of: "whale", caseSensitive: true).count == 1)
        #expect(laidOut.document.ranges(of: "").isEmpty)
    }

    @Test func aMatchAcrossAWrapIsHighlightedOnBothLines() throws {
        let laidOut = try layout("<p>aaaa bbbb cccc dddd</p>", width: 9)
        #expect(laidOut.textLines == ["aaaa bbbb", "cccc dddd"])
        let match = try #require(laidOut.document.ranges(of: "bbbb cccc").first)
        let pieces = laidOut.highlights(for: match)
        #expect(pieces.map(\.line) == [0, 1])
        #expect(pieces.map(\.columns) == [5..<9, 0..<4])
    }

    @Test func searchInJapaneseMapsToWideCells() throws {
        let laidOut = try layout("<p>山路を登りながら、こう考えた。智に働けば角が立つ。</p>", width: 10)
        let match = try #require(laidOut.document.ranges(of: "考えた").first)
        for piece in laidOut.highlights(for: match) {
            #expect(piece.columns.count % 2 == 0)
            #expect("考えた".contains(cells(laidOut.lines[piece.line], piece.columns)))
        }
    }

    @Test func positionsAndPointingAreInverse() throws {
        let laidOut = try layout("<p>Hello wide 世界 and 👨‍👩‍👧 world</p><ul><li>item</li></ul>", width: 12)
        for offset in 0..<laidOut.document.length {
            guard let position = laidOut.position(of: offset) else { continue }
            let character = laidOut.document.text(in: offset..<(offset + 1))
            if character == " " || character == "\n" { continue }
            #expect(laidOut.offset(atLine: position.line, column: position.column) == offset, "offset \(offset) \(character)")
        }
    }

    @Test func copyTextIsWhatIsShownInReadingOrder() throws {
        let laidOut = try layout("""
            <p>First para\u{AD}graph that wraps.</p><ol><li>item</li></ol><p><ruby>漢<rt>かん</rt></ruby> <img src="a.png" alt="pic"/></p>
            """, width: 10, justify: true)
        #expect(laidOut.copyText(lines: 0..<laidOut.lineCount) == "First paragraph that wraps.\n1. item\n漢（かん） [image: pic]")
        #expect(laidOut.copyText(lines: 0..<1) == "First")
        let arabic = try layout("<p dir=\"rtl\">مرحبا بالعالم</p>", width: 20)
        #expect(arabic.copyText(lines: 0..<1) == "مرحبا بالعالم")
        #expect(arabic.displayText(lines: 0..<1).unshaped.hasSuffix("ملاعلاب ابحرم"))
    }

    @Test func textColumnCentresAndKeepsMargins() {
        #expect(TextColumn(windowWidth: 100, maximumWidth: 60, minimumMargin: 2) == TextColumn(windowWidth: 100, maximumWidth: 60, minimumMargin: 2))
        let column = TextColumn(windowWidth: 100, maximumWidth: 60, minimumMargin: 2)
        #expect((column.leftMargin, column.width, column.rightMargin) == (20, 60, 20))
        let small = TextColumn(windowWidth: 40, maximumWidth: 60, minimumMargin: 4)
        #expect((small.leftMargin, small.width, small.rightMargin) == (4, 32, 4))
        let tiny = TextColumn(windowWidth: 22, maximumWidth: nil, minimumMargin: 4)
        #expect((tiny.leftMargin, tiny.width, tiny.rightMargin) == (1, 20, 1))
    }
}

/// Units a selection extends by.
@Suite struct TextUnitTests {
    @Test func wordsAndParagraphs() throws {
        let document = try document("<p>Call me Ishmael, well-known. 山路を</p><p>Next one.</p>")
        func word(at offset: Int) -> String { document.text(in: document.wordRange(containing: offset)) }
        #expect(word(at: 0) == "Call")
        #expect(word(at: 9) == "Ishmael,")
        #expect(word(at: 18) == "well-")
        #expect(word(at: 23) == "known.")
        #expect(word(at: 29) == "山")
        #expect(word(at: 30) == "路")
        #expect(document.wordRange(containing: 4).isEmpty)
        #expect(document.text(in: document.paragraphRange(containing: 5)) == "Call me Ishmael, well-known. 山路を")
        #expect(document.text(in: document.paragraphRange(containing: 36)) == "Next one.")
        let table = try TextLayoutTests.document("<table><tr><td>one cell</td><td>two</td></tr></table>")
        #expect(table.text(in: table.paragraphRange(containing: 1)) == "one cell")
        #expect(table.text(in: table.wordRange(containing: 10)) == "two")
    }
}

import Testing
@testable import TextLayout
import TerminalCells

/// Right-to-left paragraphs: right-aligned, in visual order for a terminal that does not
/// reorder (the Unicode Bidirectional Algorithm through FriBidi, reordered by cluster).
@Suite struct BidiTests {
    @Test func arabicSentenceIsReversedAndRightAligned() throws {
        let laidOut = try layout("<p dir=\"rtl\">مرحبا بالعالم</p>", width: 20)
        let line = laidOut.lines[0]
        #expect(line.direction == .rightToLeft)
        #expect(line.text.unshaped == String(repeating: " ", count: 7) + "ملاعلاب ابحرم")
        #expect(line.width == 20)
    }

    @Test func arabicWithoutDirIsFoundFromItsLetters() throws {
        let laidOut = try layout("<p>مرحبا بالعالم</p>", width: 20)
        #expect(laidOut.lines[0].direction == .rightToLeft)
        #expect(laidOut.lines[0].text.unshaped.hasSuffix("ملاعلاب ابحرم"))
        // …and from the language of the document when a paragraph has no strong letter.
        let digits = try layout("<html lang=\"ar\"><body><p>123</p></body></html>", width: 10)
        #expect(digits.lines[0].text == "       123")
    }

    @Test func numbersAndLatinKeepTheirOrderInsideArabic() throws {
        let laidOut = try layout("<p dir=\"rtl\">العدد 123 و ABC.</p>", width: 40)
        #expect(laidOut.lines[0].text.trimmingLeadingSpaces.unshaped == ".ABC و 123 ددعلا")
    }

    @Test func bracketsAreMirrored() throws {
        let laidOut = try layout("<p dir=\"rtl\">(שלום) [עולם]</p>", width: 20)
        #expect(laidOut.lines[0].text.trimmingLeadingSpaces == "[םלוע] (םולש)")
    }

    @Test func latinParagraphWithArabicWordKeepsLeftToRight() throws {
        let laidOut = try layout("<p>The word سلام means peace.</p>", width: 40)
        #expect(laidOut.lines[0].direction == .leftToRight)
        // م, the lam-alef ligature, س (see ArabicShapingTests).
        #expect(laidOut.lines[0].text == "The word \u{FEE1}\u{FEFC}\u{FEB3} means peace.")
    }

    @Test func wrappedArabicLinesReadRightToLeftFromTheTop() throws {
        // Logical words w1 … w6: the first line holds the first words, shown at the right.
        let laidOut = try layout("<p dir=\"rtl\">واحد اثنان ثلاثة أربعة خمسة ستة</p>", width: 16)
        // ثلاثة has a lam-alef ligature, which folds back to lam, alef in that order.
        #expect(laidOut.textLines.map(\.trimmingLeadingSpaces.unshaped) == ["ةثلاث نانثا دحاو", "ةتس ةسمخ ةعبرأ"])
        #expect(layoutProblems(laidOut) == [])
        for line in laidOut.lines { #expect(line.width == 16) }  // right-aligned
    }

    @Test func inlineDirIsolatesARun() throws {
        // An English title inside Arabic, isolated with dir="ltr": it stays in one piece.
        let laidOut = try layout("<p dir=\"rtl\">كتاب <span dir=\"ltr\">Moby-Dick, 1851</span> رواية</p>", width: 40)
        #expect(laidOut.lines[0].text.trimmingLeadingSpaces.unshaped == "ةياور Moby-Dick, 1851 باتك")
    }

    @Test func bdoOverridesTheOrder() throws {
        let laidOut = try layout("<p><bdo dir=\"rtl\">abc</bdo></p>", width: 10)
        #expect(laidOut.lines[0].text.trimmingLeadingSpaces == "cba")
    }

    @Test func highlightingAnArabicWordCoversItsCells() throws {
        let laidOut = try layout("<p dir=\"rtl\">الكتاب على الطاولة</p>", width: 30)
        let match = try #require(laidOut.document.ranges(of: "على").first)
        let pieces = laidOut.highlights(for: match)
        #expect(pieces.count == 1)
        #expect(String(cells(laidOut.lines[pieces[0].line], pieces[0].columns).reversed()).unshaped == "على")
        // Pointing at a cell of the word finds the word.
        let offset = laidOut.offset(atLine: pieces[0].line, column: pieces[0].columns.lowerBound)
        #expect(match.contains(offset))
    }

    @Test func combiningMarksStayOnTheirLetters() throws {
        let laidOut = try layout("<p dir=\"rtl\">حسنًا</p>", width: 10)
        let clusters = laidOut.lines[0].spans.flatMap(\.characters)
        #expect(clusters.map { String($0).unshaped }.contains("\u{646}\u{64B}"))
        #expect(CellWidth.of(laidOut.lines[0].text) == laidOut.lines[0].width)
    }
}

extension String {
    var trimmingLeadingSpaces: String { String(drop { $0 == " " }) }
}

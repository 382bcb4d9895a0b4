import Testing
@testable import TextLayout
import TerminalCells

/// Arabic letters joined into their presentation forms when Lectern does the visual ordering
/// (FriBidi joining and shaping), lam-alef ligatures included; logical order, unshaped, for
/// terminals that reorder (`bidi = "terminal"`).
@Suite struct ArabicShapingTests {
    /// The scalars of `text`, as hexadecimal code points.
    func codePoints(_ text: some StringProtocol) -> [String] {
        text.unicodeScalars.map { String($0.value, radix: 16, uppercase: true) }
    }

    @Test func wordTakesInitialMedialAndFinalForms() throws {
        // مرحبا: meem initial, reh final (it does not join to the left), hah initial, beh
        // medial, alef final; shown right to left, so the alef comes first on screen.
        let line = try layout("<p dir=\"rtl\">مرحبا</p>", width: 10).lines[0]
        #expect(codePoints(line.text.trimmingLeadingSpaces) == ["FE8E", "FE92", "FEA3", "FEAE", "FEE3"])
        #expect(line.width == 10)
    }

    @Test func lamAlefBecomesOneLigatureInOneCell() throws {
        // السلام: alef isolated, lam initial, seen medial, lam-alef final ligature, meem
        // isolated: six letters in five cells.
        let line = try layout("<p dir=\"rtl\">السلام</p>", width: 10).lines[0]
        #expect(codePoints(line.text.trimmingLeadingSpaces) == ["FEE1", "FEFC", "FEB4", "FEDF", "FE8D"])
        #expect(line.text == "     " + "\u{FEE1}\u{FEFC}\u{FEB4}\u{FEDF}\u{FE8D}")
        #expect(line.width == 10)
        #expect(layoutProblems(try layout("<p dir=\"rtl\">السلام عليكم لا إله</p>", width: 8)) == [])
        // A lone لا is the isolated ligature.
        let alone = try layout("<p dir=\"rtl\">لا</p>", width: 4).lines[0]
        #expect(codePoints(alone.text.trimmingLeadingSpaces) == ["FEFB"])
    }

    @Test func persianLettersJoinToo() throws {
        // پدر (father): peh initial, dal final, reh isolated (dal does not join to the left).
        let line = try layout("<p dir=\"rtl\">پدر</p>", width: 5).lines[0]
        #expect(codePoints(line.text.trimmingLeadingSpaces) == ["FEAD", "FEAA", "FB58"])
    }

    @Test func theLamOfALigatureTakesNoCell() throws {
        // The view measures clusters with CellWidth when it splits a span for highlights.
        #expect(CellWidth.of("\u{FEFF}" as Character) == 0)
        let line = try layout("<p dir=\"rtl\">لا</p>", width: 4).lines[0]
        let characters = line.spans.flatMap(\.characters)
        #expect(characters.reduce(0) { $0 + CellWidth.of($1) } == 1)
    }

    @Test func offsetsStayOnTheLettersOfTheDocument() throws {
        let laidOut = try layout("<p dir=\"rtl\">السلام عليكم</p>", width: 20)
        // Copying takes the letters, not their shapes.
        #expect(laidOut.copyText(lines: 0..<1) == "السلام عليكم")
        // The word's highlight covers its five cells, at the right.
        let line = laidOut.lines[0]
        let columns = line.spans.compactMap { $0.columns(of: 0..<6) }
        #expect(columns.map(\.count).reduce(0, +) == 5)
        #expect(columns.map(\.upperBound).max() == 20)
    }

    @Test func shapesInsideALeftToRightParagraphAndInTables() throws {
        let line = try layout("<p>The word سلام means peace.</p>", width: 40).lines[0]
        #expect(line.text == "The word \u{FEE1}\u{FEFC}\u{FEB3} means peace.")
        let table = try layout("<table dir=\"rtl\"><tr><td>كتب</td><td>لا</td></tr></table>", width: 12)
        // The first column on the right: كتب (kaf initial, teh medial, beh final), then لا.
        #expect(table.texts[0].contains("\u{FEFB}"))
        #expect(table.texts[0].hasSuffix("\u{FE90}\u{FE98}\u{FEDB}"))
        // A cell of several paragraphs: each shaped on its own line.
        let cell = try layout("<table><tr><td>Latin</td><td><p dir=\"rtl\">كتب</p><p dir=\"rtl\">لا</p></td></tr></table>", width: 20)
        #expect(cell.texts.contains { $0.contains("\u{FE90}\u{FE98}\u{FEDB}") })
        #expect(cell.texts.contains { $0.contains("\u{FEFB}") })
        #expect(layoutProblems(cell) == [])
    }

    @Test func terminalModeSendsLogicalOrderUnshaped() throws {
        let laidOut = try layout("<p dir=\"rtl\">السلام (عليكم)</p>", width: 20, bidi: .terminal)
        let line = laidOut.lines[0]
        #expect(line.text.trimmingLeadingSpaces == "السلام (عليكم)")
        #expect(line.direction == .rightToLeft)
        #expect(line.width == 20)
    }

    @Test func otherScriptsAreLeftAlone() throws {
        #expect(try layout("<p dir=\"rtl\">שלום עולם</p>", width: 10).lines[0].text == " םלוע םולש")
        #expect(try layout("<p>Plain text.</p>", width: 20).lines[0].text == "Plain text.")
    }
}

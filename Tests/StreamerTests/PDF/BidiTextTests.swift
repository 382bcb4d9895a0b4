@testable import LibPoppler
import Testing

/// The repair of poppler's right-to-left output, on strings shaped as poppler writes them.
@Suite struct BidiTextTests {
    static let rle = "\u{202B}", lre = "\u{202A}", pdf = "\u{202C}"
    /// حَبيبي in logical order, and as poppler reverses it.
    static let habibi = "\u{062D}\u{064E}\u{0628}\u{064A}\u{0628}\u{064A}"
    static let reversedHabibi = String(habibi.unicodeScalars.reversed().map(Character.init))

    /// Boxes side by side on one line with the given widths.
    static func boxes(_ widths: [Double]) -> [BidiText.Box] {
        var x = 10.0
        return widths.map { width in
            defer { x += width }
            return BidiText.Box(x1: x, y1: 50, x2: x + width, y2: 62)
        }
    }

    @Test func marksAreRemovedWhenNothingNeedsRepair() {
        let text = "abc " + Self.rle + Self.habibi + Self.pdf + " def"
        let widths = [5.0, 6, 7, 3] + [8.1, 0.5, 7.2, 6.3, 7.4, 6.5] + [3, 5, 6, 7]
        #expect(BidiText.logicalText(text, boxes: Self.boxes(widths)) == "abc " + Self.habibi + " def")
        #expect(BidiText.strippingMarks(text) == "abc " + Self.habibi + " def")
    }

    /// WeasyPrint's sample: one glyph maps to "حَبيبي h", sliced in eight equal boxes, and
    /// poppler (right-to-left page) reverses its Arabic part.
    @Test func aGlyphMappedToMixedTextKeepsItsOwnOrder() {
        let text = Self.rle + Self.lre + " habibi" + Self.pdf + Self.reversedHabibi + Self.pdf
        let slice = 7.73 / 8
        let widths = Array(repeating: slice, count: 8) + [7.15, 7.68, 3.83, 7.68, 3.83]
        #expect(BidiText.logicalText(text, boxes: Self.boxes(widths)) == Self.habibi + " habibi")
    }

    /// A glyph mapped to "حَبيبي " (a space inside a word can only come from a mapping).
    @Test func aGlyphMappedToTextWithASpaceKeepsItsOwnOrder() {
        let text = Self.rle + " " + Self.reversedHabibi + Self.pdf
        let widths = Array(repeating: 6.35 / 7, count: 7)
        #expect(BidiText.logicalText(text, boxes: Self.boxes(widths)) == Self.habibi + " ")
    }

    /// Equal advances alone prove nothing: adjacent letters often share one.
    @Test func equalWidthLettersAloneAreLeftAsPopplerOrdersThem() {
        let text = Self.rle + Self.habibi + Self.pdf
        #expect(BidiText.logicalText(text, boxes: Self.boxes(Array(repeating: 6, count: 6))) == Self.habibi)
    }

    @Test func unbalancedMarksOrMisalignedBoxesFallBackToStripping() {
        let unbalanced = Self.pdf + "abc" + Self.rle + Self.habibi
        #expect(BidiText.logicalText(unbalanced, boxes: Self.boxes(Array(repeating: 6, count: 9))) == "abc" + Self.habibi)
        let text = Self.rle + Self.reversedHabibi + Self.pdf
        #expect(BidiText.logicalText(text, boxes: Self.boxes([1, 1])) == Self.reversedHabibi)
        let nested = Self.rle + Self.rle + "x" + Self.pdf + Self.pdf
        #expect(BidiText.logicalText(nested, boxes: Self.boxes([1])) == "x")
    }

    @Test func drawingOrderUndoesPopplersRightToLeftWordLayout() throws {
        // A word drawn "abc" then "حَب": on a right-to-left page poppler writes the Arabic
        // section (reversed) first, then the Latin one in LRE.
        let word = "abc" + "\u{062D}\u{064E}\u{0628}"
        let output = Self.rle + "\u{0628}\u{064E}\u{062D}" + Self.lre + "abc" + Self.pdf + Self.pdf
        let (scalars, groups) = try #require(BidiText.parse(output))
        #expect(String(String.UnicodeScalarView(BidiText.drawingOrder(scalars, groups: groups))) == word)
    }
}

/// Turns poppler's selection text into plain logical-order text.
///
/// How poppler (22.12, `TextOutputDev`) writes right-to-left text: it keeps each word's
/// characters in drawing order, assumes that order is visual (left to right), and when
/// dumping reverses every right-to-left run, wrapping it in bidi embedding marks — `RLE … PDF`
/// around right-to-left runs, and on pages it judges right-to-left, `RLE … PDF` around each
/// whole word with `LRE … PDF` around its left-to-right runs. For glyphs that map to one
/// character each, drawn left to right (what shaping engines emit) or right to left, the
/// result is logical order, and only the marks need removing.
///
/// It goes wrong when one glyph maps to several characters (a ToUnicode string): poppler lays
/// the string out left to right inside the glyph box, then reverses it with the run, so a
/// string that was already in logical order comes out backwards. Some producers map a whole
/// cluster or word onto one glyph (WeasyPrint 54 maps "حَبيبي" onto a single glyph, mixed
/// with Latin letters and spaces). Such glyphs are recognised from the layout: their
/// characters get equal slices of one box, side by side. When such a slice run mixes
/// right-to-left letters with left-to-right letters or with whitespace inside a word
/// (poppler splits words at whitespace glyphs, so whitespace inside a word can only come
/// from a multi-character mapping), the word is given back in drawing order — the string's
/// own, logical, order — instead of poppler's reversal.
///
/// Not repaired: a multi-character glyph made only of right-to-left letters (a lam-alef
/// ligature mapped to "لا" comes out "ال"), since adjacent glyphs of equal advance look the
/// same in the layout and repairing them would break ordinary text.
enum BidiText {
    static let leftToRightEmbedding: Unicode.Scalar = "\u{202A}"
    static let rightToLeftEmbedding: Unicode.Scalar = "\u{202B}"
    static let popDirectionalFormatting: Unicode.Scalar = "\u{202C}"

    /// One character's box in the page.
    typealias Box = PDFCharacterBox

    static func isEmbeddingMark(_ scalar: Unicode.Scalar) -> Bool {
        scalar == leftToRightEmbedding || scalar == rightToLeftEmbedding || scalar == popDirectionalFormatting
    }

    static func strippingMarks(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { !isEmbeddingMark($0) }))
    }

    /// A top-level `RLE … PDF` group of poppler's output: one reordered run or word.
    struct Group {
        var range: Range<Int>
        /// Its parts in output order: right-to-left parts (reversed by poppler) and
        /// left-to-right parts (`LRE … PDF`, kept).
        var sections: [(isRightToLeft: Bool, range: Range<Int>)] = []
    }

    /// Logical-order text of poppler's `text`, given the boxes of its characters (one per
    /// character once the marks are removed). Falls back to removing the marks when the two
    /// do not line up or the marks are not nested as poppler writes them.
    static func logicalText(_ text: String, boxes: [Box]) -> String {
        guard let (scalars, groups) = parse(text), boxes.count == scalars.count else {
            return strippingMarks(text)
        }
        let drawing = drawingOrder(scalars, groups: groups)
        var inGroup = [Bool](repeating: false, count: scalars.count)
        for group in groups { for index in group.range { inGroup[index] = true } }
        let misordered = multiCharacterGlyphs(drawing, boxes: boxes, inGroup: inGroup)

        var output = scalars
        for group in groups where group.range.contains(where: { misordered[$0] }) {
            output.replaceSubrange(group.range, with: drawing[group.range])
        }
        return String(String.UnicodeScalarView(output))
    }

    /// The characters without marks, and the groups the marks delimit.
    static func parse(_ text: String) -> (scalars: [Unicode.Scalar], groups: [Group])? {
        var scalars: [Unicode.Scalar] = []
        var groups: [Group] = []
        var current: Group?
        var sectionStart = 0
        var depth = 0
        func closeSection(rightToLeft: Bool) {
            if scalars.count > sectionStart { current?.sections.append((rightToLeft, sectionStart..<scalars.count)) }
            sectionStart = scalars.count
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case rightToLeftEmbedding:
                guard depth == 0 else { return nil }
                depth = 1
                current = Group(range: scalars.count..<scalars.count)
                sectionStart = scalars.count
            case leftToRightEmbedding:
                guard depth == 1 else { return nil }
                closeSection(rightToLeft: true)
                depth = 2
            case popDirectionalFormatting:
                if depth == 2 {
                    closeSection(rightToLeft: false)
                    depth = 1
                } else if depth == 1 {
                    closeSection(rightToLeft: true)
                    guard var group = current else { return nil }
                    group.range = group.range.lowerBound..<scalars.count
                    groups.append(group)
                    current = nil
                    depth = 0
                } else {
                    return nil
                }
            default:
                scalars.append(scalar)
            }
        }
        return depth == 0 ? (scalars, groups) : nil
    }

    /// Undoes poppler's reordering: each group back in the order its characters were drawn
    /// (the order of the layout boxes). Right-to-left sections were reversed; on
    /// right-to-left pages the sections themselves were written from the word's end (a group
    /// of one section is the same either way).
    static func drawingOrder(_ scalars: [Unicode.Scalar], groups: [Group]) -> [Unicode.Scalar] {
        var drawing = scalars
        for group in groups {
            var characters: [Unicode.Scalar] = []
            characters.reserveCapacity(group.range.count)
            for section in group.sections.reversed() {
                let part = scalars[section.range]
                if section.isRightToLeft { characters += part.reversed() } else { characters += part }
            }
            guard characters.count == group.range.count else { continue }
            drawing.replaceSubrange(group.range, with: characters)
        }
        return drawing
    }

    /// Marks the characters of glyphs whose several characters poppler reversed wrongly.
    static func multiCharacterGlyphs(_ drawing: [Unicode.Scalar], boxes: [Box], inGroup: [Bool]) -> [Bool] {
        var marked = [Bool](repeating: false, count: drawing.count)
        var start = 0
        while start < drawing.count {
            var end = start + 1
            while end < drawing.count, areSlicesOfOneGlyph(boxes[end - 1], boxes[end]) { end += 1 }
            if end - start >= 2 {
                let slice = start..<end
                let hasRightToLeft = slice.contains { isRightToLeft(drawing[$0]) }
                let hasLeftToRight = slice.contains { isLeftToRightLetter(drawing[$0]) }
                let hasInnerSpace = slice.contains { inGroup[$0] && drawing[$0].properties.isWhitespace }
                if hasRightToLeft && (hasLeftToRight || hasInnerSpace) {
                    for index in slice { marked[index] = true }
                }
            }
            start = end
        }
        return marked
    }

    /// Whether two consecutive boxes are equal slices of one glyph box.
    static func areSlicesOfOneGlyph(_ a: Box, _ b: Box) -> Bool {
        let tolerance = 1e-6
        return a.width > tolerance && abs(a.width - b.width) < tolerance && abs(a.x2 - b.x1) < tolerance
            && abs(a.y1 - b.y1) < tolerance && abs(a.y2 - b.y2) < tolerance
    }

    /// Letters of the right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan,
    /// Mandaic, their presentation forms, and the historic right-to-left blocks).
    static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: true
        default: false
        }
    }

    static func isLeftToRightLetter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic && !isRightToLeft(scalar)
    }
}

import Testing
import TerminalCells
@testable import TextLayout

/// The packed storage of a paragraph's text (``PackedScalars``, ``ClusterWidths``,
/// ``PackedBreaks``) reads back exactly what it was given, in the narrowest storage that holds
/// it: offsets, widths and break opportunities are those of the unpacked text.
@Suite struct PackedTextTests {
    /// Clusters of every kind the converter produces: ASCII, Latin-1, curly quotes and dashes,
    /// combining sequences, emoji (alone, with a skin tone, ZWJ sequences, flags), CR LF,
    /// Hangul jamo, Hebrew and Arabic, CJK wide, Devanagari conjuncts, the U+FEFF of a lam-alef
    /// ligature, line feeds and no-break spaces.
    static let edgeCases: [Character] = [
        "a", "Z", " ", "é", "\u{2019}", "\u{2014}", "e\u{301}", "\u{A0}\u{301}", "👍", "👍🏽", "👨‍👩‍👧", "🇫🇷",
        "\r\n", "\u{1100}\u{1161}", "ש", "ل", "ا", "\u{FEFF}", "中", "文", "。", "कि", "क्", "\n", "\u{A0}", "Ж",
    ]

    /// Each cluster's lead, as the converter records it.
    static func lead(_ character: Character) -> UInt32 { character.unicodeScalars.first!.value }

    @Test func asciiAndLatinTextTakeOneBytePerScalar() {
        let latin = "Don’t — café, naïve «déjà vu» œuvre."
        let packed = PackedScalars(latin.unicodeScalars.map(\.value))
        #expect(packed.bytesPerValue == 1)
        #expect(packed == latin.unicodeScalars.map(\.value))
        // A whole alphabet fits in the palette.
        let cyrillic = (0x410...0x44F).map { UInt32($0) } + Array("Съешь же ещё".unicodeScalars.map(\.value))
        let russian = PackedScalars(cyrillic)
        #expect(russian.bytesPerValue == 1)
        #expect(russian == cyrillic)
    }

    @Test func wideScalarsWidenTheStorageOnceAndKeepEveryValue() {
        var values: [UInt32] = Array("abc é".unicodeScalars.map(\.value))
        var packed = PackedScalars(values)
        // More than 128 distinct non-ASCII scalars of the BMP: two bytes each.
        for value in UInt32(0x4E00)..<UInt32(0x4E00 + 200) {
            packed.append(value)
            values.append(value)
        }
        #expect(packed.bytesPerValue == 2)
        #expect(packed == values)
        // A scalar beyond the BMP: four bytes each.
        packed.append(0x1F44D)
        values.append(0x1F44D)
        #expect(packed.bytesPerValue == 4)
        #expect(packed == values)
        // An emoji in an otherwise ASCII text goes to the palette, still one byte each.
        #expect(PackedScalars([0x41, 0x1F44D, 0x42]).bytesPerValue == 1)
        #expect(PackedScalars([0x41, 0x1F44D, 0x42]) == [0x41, 0x1F44D, 0x42])
    }

    @Test func removingAndAppendingKeepTheOrder() {
        for widest: UInt32 in [0x7A, 0xE9, 0x4E2D, 0x1F600] {
            var values: [UInt32] = [0x61, widest, 0x62, 0x63, widest]
            var packed = PackedScalars(values)
            packed.removeFirst()
            packed.removeLast()
            values.removeFirst()
            values.removeLast()
            #expect(packed == values)
            packed.append(contentsOf: PackedScalars([0x1F600, 0x20]))
            packed.pack()
            #expect(packed == values + [0x1F600, 0x20], "widest \(widest)")
        }
    }

    @Test func breaksReadBackAsAppended() {
        var generator = SeededGenerator(seed: 15)
        let kinds: [LineBreak] = [.none, .allowed, .softHyphen, .mandatory]
        let breaks = (0..<1001).map { _ in kinds.randomElement(using: &generator)! }
        var packed = PackedBreaks(breaks)
        #expect(Array(packed) == breaks)
        packed.append(contentsOf: PackedBreaks([.mandatory, .softHyphen]))
        #expect(Array(packed) == breaks + [.mandatory, .softHyphen])
    }

    /// Random texts of the edge cases, with any widths (a tab's 8 cells, a lam's 0) and breaks:
    /// an ``InlineText`` gives back its clusters, leads, widths and breaks, and so does the
    /// concatenation of two (table cells).
    @Test func inlineTextReadsBackRandomTextsOfEdgeCases() {
        var generator = SeededGenerator(seed: 42)
        let kinds: [LineBreak] = [.none, .allowed, .softHyphen, .mandatory]
        func randomText(_ length: Int) -> (InlineText, [Character], [UInt8], [LineBreak]) {
            var characters = Clusters(), clusters: [Character] = [], widths: [UInt8] = [], breaks: [LineBreak] = []
            for _ in 0..<length {
                let character = Self.edgeCases.randomElement(using: &generator)!
                characters.append(character, lead: Self.lead(character))
                clusters.append(character)
                // Mostly the converter's width, sometimes another one.
                let width = Int.random(in: 0..<8, using: &generator) == 0 ? UInt8.random(in: 0...8, using: &generator)
                    : UInt8(character == "\n" ? 0 : CellWidth.of(character))
                widths.append(width)
                breaks.append(kinds.randomElement(using: &generator)!)
            }
            let text = InlineText(characters: characters, widths: widths, styles: StyleRuns(Array(repeating: .plain, count: length)),
                                  breaks: breaks)
            return (text, clusters, widths, breaks)
        }
        for length in [0, 1, 7, 100, 2000] {
            let (text, clusters, widths, breaks) = randomText(length)
            #expect(Array(text.characters) == clusters)
            #expect(text.leads == clusters.map(Self.lead))
            #expect((0..<text.count).map { UInt8(text.width(at: $0)) } == widths)
            #expect(Array(text.widths) == widths)
            #expect(Array(text.breaks) == breaks)

            var joined = text
            let (other, otherClusters, otherWidths, otherBreaks) = randomText(length / 2 + 1)
            joined.appendParagraph(other)
            #expect(Array(joined.characters) == clusters + ["\n"] + otherClusters)
            #expect(Array(joined.widths) == widths + [0] + otherWidths)
            #expect(Array(joined.breaks) == breaks + [.mandatory] + otherBreaks)
        }
    }

    /// Through the converter: a paragraph's leads take one byte each in Latin, Cyrillic or
    /// Greek text (an emoji too), two in CJK text, four only for more than 128 distinct
    /// non-ASCII scalars with one beyond the BMP.
    @Test func convertedTextIsPackedInTheNarrowestStorage() throws {
        let cases: [(String, Int)] = [
            ("Plain ASCII text.", 1), ("Don’t — café «déjà vu» 👍", 1), ("Съешь же ещё этих мягких французских булок", 1),
            ("Ξεσκεπάζω την ψυχοφθόρα βδελυγμία", 1), (String((0x4E00..<0x4E00 + 300).compactMap(Unicode.Scalar.init).map(Character.init)), 2),
            (String((0x4E00..<0x4E00 + 300).compactMap(Unicode.Scalar.init).map(Character.init)) + "😀", 4),
        ]
        for (paragraph, bytes) in cases {
            let text = try document("<p>\(paragraph)</p>").blocks[0].text
            #expect(text.string == paragraph)
            #expect(text.leads.bytesPerValue == bytes, "\(paragraph)")
        }
    }

    /// Through the converter: every cluster is as wide as ``CellWidth`` says (a line feed
    /// none), in texts of each script, including those whose clusters are mostly wider than
    /// their lead (Devanagari conjuncts).
    @Test func convertedWidthsAreTheClustersWidths() throws {
        let paragraphs = [
            "plain ASCII text, with a soft\u{AD}hyphen",
            "e\u{301}t\u{E9} — \u{201C}quoted\u{201D} 👨‍👩‍👧 👍🏽 🇫🇷 ok",
            "中文的文本。日本語のテキスト、한국어 텍스트",
            "العربية لا إله، עברית",
            "क्षत्रिय क्ष त्र ज्ञ श्र क्ष क्ष",
        ]
        for paragraph in paragraphs {
            let blocks = try document("<p>\(paragraph)<br/>next</p><pre>\(paragraph)\r\nb\tc</pre>").blocks
            #expect(blocks.count == 2)
            for text in blocks.map(\.text) {
                let expected = text.characters.map { UInt8($0 == "\n" ? 0 : CellWidth.of($0)) }
                #expect(Array(text.widths) == expected, "\(paragraph)")
            }
            #expect(blocks[0].text.string.hasSuffix("\nnext"))
        }
    }
}

import Testing
@testable import TextLayout
import TerminalCells

/// The cell width table and the cluster rules, on characters whose terminal width is known.
@Suite struct CellWidthTests {
    @Test(arguments: [
        ("a", 1), ("~", 1), (" ", 1),
        ("中", 2), ("あ", 2), ("ア", 2), ("한", 2), ("Ａ", 2), ("　", 2), ("、", 2),
        ("ｱ", 1), ("é", 1), ("Ω", 1), ("ا", 1), ("א", 1), ("─", 1), ("•", 1),
        ("😀", 2), ("🐳", 2), ("⌚", 2), ("❤", 1), ("☺", 1),
    ])
    func singleScalars(_ text: String, _ width: Int) {
        #expect(CellWidth.of(Character(text)) == width, "\(text)")
    }

    @Test func combiningMarksAddNothing() {
        #expect(CellWidth.of(Character("e\u{301}")) == 1)
        #expect(CellWidth.of(Character("a\u{301}\u{323}\u{30A}")) == 1)
        #expect(CellWidth.of(Character("\u{627}\u{64B}")) == 1)  // Arabic letter + tanween
        #expect(CellWidth.of(Character("\u{5D1}\u{5BC}")) == 1)  // Hebrew letter + dagesh
    }

    @Test func emojiPresentationSelectorMakesTwo() {
        #expect(CellWidth.of(Character("\u{2764}\u{FE0F}")) == 2)  // ❤️
        #expect(CellWidth.of(Character("\u{1F5BC}\u{FE0F}")) == 2)  // 🖼️ (baca#4)
        #expect(CellWidth.of(Character("1\u{FE0F}\u{20E3}")) == 2)  // keycap 1️⃣
        #expect(CellWidth.of(Character("\u{263A}\u{FE0E}")) == 1)  // ☺︎ text presentation
    }

    @Test func zwjSequencesFlagsAndSkinTonesAreTwo() {
        #expect(CellWidth.of(Character("👨‍👩‍👧‍👦")) == 2)
        #expect(CellWidth.of(Character("👩🏽‍💻")) == 2)
        #expect(CellWidth.of(Character("❤️‍🔥")) == 2)
        #expect(CellWidth.of(Character("🏳️‍🌈")) == 2)
        #expect(CellWidth.of(Character("🇯🇵")) == 2)
        #expect(CellWidth.of(Character("🇫🇷")) == 2)
        #expect(CellWidth.of(Character("👍🏽")) == 2)
    }

    @Test func hangulJamoClusterIsTwo() {
        #expect(CellWidth.of(Character("\u{1100}\u{1161}\u{11A8}")) == 2)
    }

    @Test func controlsAndFormatCharactersAreZero() {
        for scalar: UInt32 in [0x00, 0x07, 0x1B, 0x7F, 0x85, 0x9F, 0x200B, 0x200D, 0x2060, 0xFEFF, 0x00AD, 0x200E, 0xFE0F] {
            #expect(CellWidth.of(Unicode.Scalar(scalar)!) == 0, "U+\(String(scalar, radix: 16))")
        }
    }

    @Test func unassignedIdeographsDefaultToWide() {
        #expect(CellWidth.of(Unicode.Scalar(0x2FFFD)!) == 2)
        #expect(CellWidth.of(Unicode.Scalar(0x3FFFD)!) == 2)
        #expect(CellWidth.of(Unicode.Scalar(0xE000)!) == 1)  // private use
    }

    @Test func stringsSumTheirClusters() {
        #expect(CellWidth.of("Hello") == 5)
        #expect(CellWidth.of("日本語") == 6)
        #expect(CellWidth.of("ＡＢＣ abc") == 10)
        #expect(CellWidth.of("cafe\u{301} 👨‍👩‍👧 🇯🇵") == 4 + 1 + 2 + 1 + 2)
        #expect(CellWidth.of("a\u{7}b\n") == 2)
    }

    /// The table agrees with the terminal conventions at the edges of its ranges.
    @Test func tableBoundaries() {
        #expect(CellWidth.of(Unicode.Scalar(0x10FF)!) == 1)
        #expect(CellWidth.of(Unicode.Scalar(0x1100)!) == 2)
        #expect(CellWidth.of(Unicode.Scalar(0x115F)!) == 2)
        #expect(CellWidth.of(Unicode.Scalar(0x1160)!) == 0)
        #expect(CellWidth.of(Unicode.Scalar(0x2E7F)!) == 1)
        #expect(CellWidth.of(Unicode.Scalar(0x3000)!) == 2)
        #expect(CellWidth.of(Unicode.Scalar(0x303E)!) == 2)
        #expect(CellWidth.of(Unicode.Scalar(0x303F)!) == 1)
        #expect(CellWidth.of(Unicode.Scalar(0xFF60)!) == 2)
        #expect(CellWidth.of(Unicode.Scalar(0xFF61)!) == 1)
        #expect(CellWidth.of(Unicode.Scalar(0x1F1E5)!) == 1)
        #expect(CellWidth.of(Unicode.Scalar(0x1F1E6)!) == 2)
    }
}

/// The Basic Multilingual Plane table the layout reads widths from equals the width of each
/// scalar computed on its own.
@Suite struct BasicPlaneWidthTableTests {
    @Test func everyScalarOfTheBasicPlaneHasItsOwnWidth() {
        let table = CellWidth.basicPlaneWidths()
        #expect(table.count == 0x10000)
        for value in 0..<0x10000 {
            let expected = Unicode.Scalar(UInt32(value)).map { UInt8(CellWidth.of($0)) } ?? 1
            if table[value] != expected {
                Issue.record("U+\(String(value, radix: 16)): table \(table[value]), scalar \(expected)")
                return
            }
        }
        #expect(table[0x4E00] == 2 && table[0x0301] == 0 && table[0x41] == 1)
    }
}

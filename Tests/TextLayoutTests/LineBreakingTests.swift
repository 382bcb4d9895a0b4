import Testing
@testable import TextLayout
import TerminalCells

/// Wrapping by cell width: never wider than the column, never a split cluster, breaks where
/// each script allows them.
@Suite struct LineBreakingTests {
    static let mixed = """
        <p>Call me Ishmael. Some years ago—never mind how long precisely—having little or no money in my purse, \
        and nothing particular to interest me on shore, I thought I would sail about a little. \
        日本語の文章は、単語の間に空白を置かずに書かれる。「括弧」や（丸括弧）もある。\
        Emoji 👨‍👩‍👧‍👦 families 🇯🇵 flags ❤️ hearts 👍🏽 and cafe\u{301} combining marks; \
        a supercalifragilisticexpialidocious-antidisestablishmentarianism word, \
        한국어 문장은 띄어쓰기를 합니다. ＦＵＬＬＷＩＤＴＨ text and a URL https://example.org/a/very/long/path/that/never/ends.html</p>
        """

    @Test(arguments: [2, 3, 4, 5, 7, 10, 13, 20, 33, 40, 61, 80, 132])
    func linesNeverExceedTheWidthAndNothingIsLost(_ width: Int) throws {
        let laidOut = try layout(Self.mixed, width: width)
        #expect(layoutProblems(laidOut) == [])
        // Every cluster of the document appears once, in order, in the lines (left to right
        // for this left-to-right text), whatever the width.
        let shown = laidOut.lines.flatMap { $0.spans.filter { !$0.offsets.isEmpty }.flatMap(\.characters) }.filter { $0 != " " }
        let expected = laidOut.document.blocks[0].text.characters.filter { $0 != " " }
        #expect(shown == expected)
        // Re-measuring each line from its text gives the same width: no cluster was split.
        for line in laidOut.lines { #expect(CellWidth.of(line.text) == line.width, "\(line.text)") }
    }

    @Test func latinBreaksAtSpacesAndFillsTheLine() throws {
        let lines = try layout("<p>the quick brown fox jumps over the lazy dog</p>", width: 15).textLines
        #expect(lines == ["the quick brown", "fox jumps over", "the lazy dog"])
    }

    @Test func hyphensAndDashesAreBreakOpportunities() throws {
        let lines = try layout("<p>well-known state-of-the-art</p>", width: 12).textLines
        #expect(lines == ["well-known", "state-of-", "the-art"])
        // Not after a hyphen before a digit, nor one with spaces around it.
        #expect(try layout("<p>xxxx -5 yy</p>", width: 7).textLines == ["xxxx -5", "yy"])
    }

    @Test func emDashBreaksOnEitherSide() throws {
        let lines = try layout("<p>precisely—having little</p>", width: 12).textLines
        #expect(lines == ["precisely—", "having", "little"])
    }

    @Test func aWordLongerThanTheLineIsBrokenBetweenClusters() throws {
        let lines = try layout("<p>ab supercalifragilistic cd</p>", width: 8).textLines
        #expect(lines == ["ab", "supercal", "ifragili", "stic cd"])
    }

    @Test func noBreakSpacesHoldWordsTogether() throws {
        let lines = try layout("<p>aaaa bbbb&nbsp;cccc dd</p>", width: 10).textLines
        #expect(lines == ["aaaa", "bbbb cccc", "dd"])
    }

    @Test func softHyphenBreaksWithAVisibleHyphen() throws {
        let laidOut = try layout("<p>xx extra\u{AD}ordinary</p>", width: 9)
        #expect(laidOut.textLines == ["xx extra-", "ordinary"])
        // The hyphen is decoration: copying gives the word whole.
        #expect(laidOut.copyText(lines: 0..<laidOut.lineCount) == "xx extraordinary")
        #expect(try layout("<p>extra\u{AD}ordinary</p>", width: 20).textLines == ["extraordinary"])
    }

    @Test func wbrAndZeroWidthSpaceAreBreakOpportunities() throws {
        #expect(try layout("<p>aaaa<wbr/>bbbb</p>", width: 6).textLines == ["aaaa", "bbbb"])
        #expect(try layout("<p>aaaa\u{200B}bbbb</p>", width: 6).textLines == ["aaaa", "bbbb"])
        #expect(try layout("<p>aaaa\u{2060}bbbb cc</p>", width: 6).textLines == ["aaaabb", "bb cc"])
    }

    @Test func brForcesALineBreak() throws {
        #expect(try layout("<p>one<br/>two <br/> three<br/><br/>five</p>", width: 20).textLines == ["one", "two", "three", "", "five"])
    }

    @Test func ideographsBreakAnywhere() throws {
        let lines = try layout("<p>一二三四五六七八九十</p>", width: 8).textLines
        #expect(lines == ["一二三四", "五六七八", "九十"])
        // An odd width leaves one cell empty rather than splitting a wide character.
        #expect(try layout("<p>一二三四五六七八九十</p>", width: 7).textLines == ["一二三", "四五六", "七八九", "十"])
    }

    @Test func kinsokuKeepsClosingPunctuationOffLineStarts() throws {
        // A naive break would start line 2 with 。: the character before it moves down.
        let lines = try layout("<p>あいうえお。かきくけこ</p>", width: 10).textLines
        #expect(lines == ["あいうえ", "お。かきく", "けこ"])
        for character in ["、", "。", "」", "）", "ー", "っ", "ゃ"] {
            let text = "<p>一二三四" + character + "五六七八九</p>"
            for width in 4...12 {
                for line in try layout(text, width: width).textLines {
                    #expect(!line.hasPrefix(character), "\(character) starts a line at width \(width): \(line)")
                }
            }
        }
    }

    @Test func kinsokuKeepsOpeningBracketsOffLineEnds() throws {
        for width in 4...14 {
            let lines = try layout("<p>一二三四「五六」七（八九）十</p>", width: width).textLines
            for line in lines {
                #expect(!line.hasSuffix("「") && !line.hasSuffix("（"), "width \(width): \(lines)")
                #expect(!line.hasPrefix("」") && !line.hasPrefix("）"), "width \(width): \(lines)")
            }
        }
    }

    @Test func latinAndIdeographsBreakBetweenEachOther() throws {
        let lines = try layout("<p>漢字とEnglishが混ざる</p>", width: 12).textLines
        #expect(lines == ["漢字と", "Englishが混", "ざる"])
    }

    @Test func hangulBreaksAtSpaces() throws {
        let lines = try layout("<p>한국어 문장은 띄어쓰기를</p>", width: 14).textLines
        #expect(lines == ["한국어 문장은", "띄어쓰기를"])
    }

    @Test func segmentBreaksBetweenIdeographsDisappear() throws {
        let laidOut = try layout("<p>日本\n語</p>", width: 40)
        #expect(laidOut.textLines == ["日本語"])
        #expect(try layout("<p>one\ntwo</p>", width: 40).textLines == ["one two"])
    }

    @Test func controlCharactersAreStripped() throws {
        #expect(try layout("<p>a&#7;b\u{1B}[31mc&#x7f;d</p>", width: 40).textLines == ["ab[31mcd"])
    }

    @Test func emojiClustersStayWhole() throws {
        let laidOut = try layout("<p>👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦🇯🇵🇫🇷</p>", width: 4)
        #expect(laidOut.textLines == ["👨‍👩‍👧‍👦👨‍👩‍👧‍👦", "👨‍👩‍👧‍👦🇯🇵", "🇫🇷"])
    }

    @Test func preformattedTextKeepsItsLinesAndWrapsHard() throws {
        let laidOut = try layout("<pre>\nint main() {\n\treturn 0;   // done\n}\n</pre>", width: 14)
        #expect(laidOut.textLines == ["int main() {", "        return", " 0;   // done", "}"])
        #expect(laidOut.lines.filter { $0.kind != .blank }.allSatisfy { $0.kind == .preformatted })
        let justified = try layout("<pre>a  b\nc</pre>", width: 10, justify: true)
        #expect(justified.textLines == ["a  b", "c"])
    }

    @Test func orphanCombiningMarkGetsABase() throws {
        let laidOut = try layout("<p>\u{301}x</p>", width: 10)
        #expect(layoutProblems(laidOut) == [])
        #expect(laidOut.lines[0].width == 2)
    }
}

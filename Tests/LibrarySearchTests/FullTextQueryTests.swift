import Bookshelf
import Testing

@Suite struct FullTextQueryTests {
    @Test func everyWordIsAQuotedStringSoNothingTypedIsSyntax() throws {
        let query = try #require(FullTextQuery(#"whale AND NEAR(x) col:umn ^start"#))
        #expect(query.matchExpression == #""whale" "AND" "NEAR(x)" "col:umn" "^start""#)
    }

    @Test func quotesMakeAPhraseAndAStarAPrefix() throws {
        let query = try #require(FullTextQuery(#""white whale" harpoon*"#))
        #expect(query.terms == [.init(text: "white whale", isPrefix: false), .init(text: "harpoon", isPrefix: true)])
        #expect(query.matchExpression == #""white whale" "harpoon"*"#)
    }

    @Test func nothingSearchableIsNoQuery() {
        #expect(FullTextQuery("") == nil)
        #expect(FullTextQuery("   ") == nil)
        #expect(FullTextQuery("!!! -- \"\" *") == nil)
    }

    @Test func unspacedScriptsBecomePhrasesOfTheirCharacters() throws {
        let query = try #require(FullTextQuery("草枕 cat"))
        #expect(query.matchExpression == #""草 枕" "cat""#)
    }
}

@Suite struct ScriptSegmentationTests {
    @Test func segmentsOnlyBetweenTwoUnspacedCharactersAndUndoesIt() {
        let samples = ["山路を登りながら、こう考えた。", "Hello 世界 and ภาษาไทย ok", "plain text, nothing to do", "草枕", "a草b"]
        for sample in samples {
            #expect(ScriptSegmentation.unsegmented(ScriptSegmentation.segmented(sample)) == sample)
        }
        #expect(ScriptSegmentation.segmented("山路を") == "山 路 を")
        #expect(ScriptSegmentation.segmented("a草b") == "a草b")
    }

    @Test func thaiVowelSignsStayWithTheirConsonant() {
        // กิ is one grapheme cluster (consonant + vowel sign): never split.
        #expect(ScriptSegmentation.segmented("กิน") == "กิ น")
    }
}

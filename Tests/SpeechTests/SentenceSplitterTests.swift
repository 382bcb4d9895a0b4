import Speech
import Testing

/// The sentences of `text` in `language`, as strings.
private func split(_ text: String, _ language: String) -> [String] {
    let characters = Array(text)
    let ranges = SentenceSplitter(language: language).sentences(in: characters)
    return ranges.map { String(characters[$0]) }
}

@Suite struct SentenceSplitterTests {
    @Test func englishAbbreviationsNumbersAndQuotes() {
        let text = "Mr. Smith met Dr. Watson at 3.14 p.m. on Baker St. in London. He said: \"Go!\" (Then he left.) "
            + "Also e.g. Paris, etc. Wait... what? \"Really?\" she asked. J. R. R. Tolkien wrote it."
        #expect(split(text, "en") == [
            "Mr. Smith met Dr. Watson at 3.14 p.m. on Baker St. in London. ",
            "He said: \"Go!\" ",
            "(Then he left.) ",
            "Also e.g. Paris, etc. ",
            "Wait... what? ",
            "\"Really?\" she asked. ",
            "J. R. R. Tolkien wrote it.",
        ])
    }

    @Test func urlsAndEllipsesAreNotCut() {
        #expect(split("See https://example.com/a.b?q=1.2 for it. Then www.example.org. Next… And so on…", "en-GB") == [
            "See https://example.com/a.b?q=1.2 for it. ",
            "Then www.example.org. ",
            "Next… ",
            "And so on…",
        ])
    }

    @Test func frenchSpacedPunctuationAndTitles() {
        #expect(split("M. Dupont arrive. « Vraiment ? » dit-elle. Mme Durand répond : « Oui ! » Voir p. 12, chap. 3. Fin !", "fr") == [
            "M. Dupont arrive. ",
            "« Vraiment ? » dit-elle. ",
            "Mme Durand répond : « Oui ! » ",
            "Voir p. 12, chap. 3. ",
            "Fin !",
        ])
    }

    @Test func germanOrdinalsAbbreviationsAndNumbers() {
        #expect(split("Am 3. Oktober kam z. B. Herr Dr. Müller. Es kostete 1.000,50 Euro. „Wirklich?“ fragte sie. Ja.", "de-DE") == [
            "Am 3. Oktober kam z. B. Herr Dr. Müller. ",
            "Es kostete 1.000,50 Euro. ",
            "„Wirklich?“ fragte sie. ",
            "Ja.",
        ])
    }

    @Test func chineseAndJapaneseStopsWithoutSpaces() {
        #expect(split("他说：“你好！”然后走了。今天天气很好！你去吗？好。", "zh-Hans") == [
            "他说：“你好！”然后走了。", "今天天气很好！", "你去吗？", "好。",
        ])
        #expect(split("今日は晴れです。「本当？」と彼は言った！明日も。「はい。」", "ja") == [
            "今日は晴れです。", "「本当？」と彼は言った！", "明日も。", "「はい。」",
        ])
    }

    @Test func paragraphsEndSentencesAndBlankLinesJoinTheSentenceBefore() {
        #expect(split("Title\n\nFirst line without stop\nSecond. Third\n", "en") == [
            "Title\n\n", "First line without stop\n", "Second. ", "Third\n",
        ])
    }

    @Test func sentencesCoverTheTextExactlyOnce() {
        let text = "  Leading space. Mr. X.\n\n\"Quoted.\" Ends without stop"
        let characters = Array(text)
        let ranges = SentenceSplitter(language: "en").sentences(in: characters)
        #expect(ranges.first?.lowerBound == 0)
        #expect(ranges.last?.upperBound == characters.count)
        for (previous, next) in zip(ranges, ranges.dropFirst()) { #expect(previous.upperBound == next.lowerBound) }
        #expect(SentenceSplitter(language: "en").sentences(in: "").isEmpty)
    }

    @Test func aLongSentenceIsCutAfterACommaThenAtASpace() {
        let clause = "word word word word word, "
        let text = String(repeating: clause, count: 10) + "end."
        let sentences = split(text, "en").map { $0 }
        let splitter = SentenceSplitter(language: "en", maximumLength: 60)
        let cut = splitter.sentences(in: Array(text))
        #expect(sentences.count == 1)
        #expect(cut.count > 1)
        for range in cut { #expect(range.count <= 60 + 1) }
        let pieces = cut.map { String(Array(text)[$0]) }
        #expect(pieces.dropLast().allSatisfy { $0.hasSuffix(", ") })
        let unbroken = String(repeating: "x", count: 100)
        #expect(splitter.sentences(in: Array(unbroken)).count == 2)
    }
}

import Testing
import TestSupport
@testable import TextLayout

/// The book search finds what a person types on a keyboard where the book has its typographic
/// equivalent (#29 item 9), and the match covers the original characters — a ligature whole.
@Suite struct TypographicSearchTests {
    func matches(_ query: String, in text: String, _ options: TextSearchOptions = TextSearchOptions()) throws -> [String] {
        let searchable = SearchableText(text)
        return try searchable.ranges(of: query, options: options).map { String(searchable.substring($0)) }
    }

    @Test func apostrophesQuotesAndDashesFold() throws {
        let text = "I found Queequeg’s arm; “Call me” — said he – well‐known"
        #expect(try matches("queequeg's", in: text) == ["Queequeg’s"])
        #expect(try matches("\"call me\"", in: text) == ["“Call me”"])
        #expect(try matches(" - said", in: text) == [" — said"])
        #expect(try matches("he - well-known", in: text) == ["he – well‐known"])
        // And the other way round: a curly apostrophe typed finds a straight one.
        #expect(try matches("queequeg’s", in: "Queequeg's") == ["Queequeg's"])
        // Whatever case and accents say.
        let exact = TextSearchOptions(caseSensitive: true, diacriticSensitive: true)
        #expect(try matches("Queequeg's", in: text, exact) == ["Queequeg’s"])
        #expect(try matches("queequeg's", in: text, exact).isEmpty)
        #expect(try matches("Queequeg's", in: text, TextSearchOptions(wholeWord: true)) == ["Queequeg’s"])
    }

    @Test func ligaturesFoldToTheirLettersAndAreMatchedWhole() throws {
        let text = "The ﬁsh and the ﬂag; an eﬃgy. FISH"
        let searchable = SearchableText(text)
        let fish = try searchable.ranges(of: "fish")
        #expect(fish.map { String(searchable.substring($0)) } == ["ﬁsh", "FISH"])
        // Offsets are the original's characters: ﬁ is one of them.
        #expect(fish.first == 4..<7)
        #expect(try matches("flag", in: text) == ["ﬂag"])
        #expect(try matches("effigy", in: text) == ["eﬃgy"])
        #expect(try matches("fish", in: text, TextSearchOptions(caseSensitive: true)) == ["ﬁsh"])
        // Half a ligature is not a match: the highlight could not cover it.
        #expect(try matches("ish", in: "ﬁsh").isEmpty)
    }
}

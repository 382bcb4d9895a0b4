@testable import ReaderUI
import Testing

/// The word a dictionary lookup takes from a selection, and how an answer is laid out.
@Suite struct DictionaryLookupTests {
    @Test func theFirstWordWithoutPunctuation() {
        #expect(DictionaryLookup.word(in: "“Serendipity,” said the reader") == "Serendipity")
        #expect(DictionaryLookup.word(in: "  don’t stop") == "don’t")
        #expect(DictionaryLookup.word(in: "well-known facts") == "well-known")
        #expect(DictionaryLookup.word(in: "-- 'quoted' --") == "quoted")
        #expect(DictionaryLookup.word(in: "السلام عليكم") == "السلام")
        #expect(DictionaryLookup.word(in: " … — ") == nil)
    }

    @Test func definitionsKeepTheirLinesAndParagraphs() {
        let document = ReaderApp.definitionDocument("-->Dictionary\n-->word\n\nfirst sense\nsecond sense")
        #expect(document.blocks.count == 2)
        #expect(document.text(in: 0..<document.length).contains("first sense\nsecond sense"))
    }
}

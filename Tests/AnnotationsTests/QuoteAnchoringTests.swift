import Annotations
import Testing

@Suite struct QuoteAnchoringTests {
    static let firstEdition = """
    It was the best of times, it was the worst of times, it was the age of wisdom, it was the age of foolishness.
    There were a king with a large jaw and a queen with a plain face, on the throne of England.
    In both countries it was clearer than crystal to the lords of the State preserves of loaves and fishes.
    The river ran by the town. Then the river froze. At last the river ran dry, and the town was silent.
    """

    /// The second edition: a paragraph inserted at the start, white space changed inside the
    /// quoted passages (a line break, doubled spaces), and the third paragraph removed.
    static let secondEdition = """
    A preface, new in this edition, which moves every offset after it.
    It was the best of times, it was the worst of times, it was the age of\nwisdom, it was the age of foolishness.
    There were a king with a large   jaw and a queen with a plain face, on the throne of England.
    The river ran by the town. Then the river froze. At last the river ran dry, and the town was silent.
    """

    /// A target made on `text` for the `occurrence`-th `quote`, with its range and 32
    /// characters of context, as the reader makes one.
    static func target(_ quote: String, occurrence: Int = 1, in text: String) -> AnnotationTarget {
        let characters = Array(text)
        let pattern = Array(quote)
        var found = 0
        for start in 0...(characters.count - pattern.count) where Array(characters[start..<start + pattern.count]) == pattern {
            found += 1
            guard found == occurrence else { continue }
            let end = start + pattern.count
            return AnnotationTarget(href: "c.xhtml", textRange: start..<end,
                                    quote: TextQuote(exact: quote, prefix: String(characters[max(0, start - 32)..<start]),
                                                     suffix: String(characters[end..<min(characters.count, end + 32)])))
        }
        preconditionFailure("\(quote) is not in the text")
    }

    static func text(_ range: Range<Int>?, in text: String) -> String? {
        range.map { String(Array(text)[$0]) }
    }

    @Test func anUnchangedTextPlacesTheAnnotationsWhereTheyWere() {
        let target = Self.target("the age of wisdom", in: Self.firstEdition)
        #expect(QuoteAnchoring.locate(target, in: Self.firstEdition) == .placed(target.textRange!))
    }

    @Test func aNewEditionWithAnInsertedParagraphAndChangedWhiteSpaceLandsOnTheSameQuotes() {
        let quotes = ["the age of wisdom, it was", "a large jaw and a queen", "Then the river froze."]
        for quote in quotes {
            let target = Self.target(quote, in: Self.firstEdition)
            let result = QuoteAnchoring.locate(target, in: Self.secondEdition)
            guard case .reanchored(let range) = result else {
                Issue.record("\(quote): \(result)")
                continue
            }
            let landed = Self.text(range, in: Self.secondEdition) ?? ""
            #expect(landed.split(whereSeparator: \.isWhitespace) == quote.split(whereSeparator: \.isWhitespace), "\(quote) landed on \(landed)")
        }
    }

    @Test func aRemovedPassageIsOrphaned() {
        let target = Self.target("clearer than crystal", in: Self.firstEdition)
        #expect(QuoteAnchoring.locate(target, in: Self.secondEdition) == .orphaned)
    }

    @Test func ofSeveralOccurrencesTheOneWhoseContextMatchesWins() {
        // "river ran" twice; the second one, made on the first edition, after the insertion.
        let target = Self.target("river ran", occurrence: 2, in: Self.firstEdition)
        let result = QuoteAnchoring.locate(target, in: Self.secondEdition)
        let expected = Self.target("river ran", occurrence: 2, in: Self.secondEdition).textRange
        #expect(result == .reanchored(expected!))
    }

    @Test func withoutContextTheOccurrenceNearestTheOldRangeWins() {
        let text = "river. river. river. river."
        // The stored range, moved by two, no longer holds the quote; 14 is nearer than 21.
        let target = AnnotationTarget(href: "c.xhtml", textRange: 16..<21, quote: TextQuote(exact: "river"))
        #expect(QuoteAnchoring.locate(target, in: text) == .reanchored(14..<19))
    }

    @Test func rangesOutsideTheTextAreOrphanedOrFoundByTheirQuote() {
        let short = "A short chapter."
        let beyond = AnnotationTarget(href: "c.xhtml", textRange: 500..<600)
        #expect(QuoteAnchoring.locate(beyond, in: short) == .orphaned)
        let huge = AnnotationTarget(href: "c.xhtml", textRange: (Int.max - 10)..<Int.max, quote: TextQuote(exact: "short"))
        #expect(QuoteAnchoring.locate(huge, in: short) == .reanchored(2..<7))
        let straddling = AnnotationTarget(href: "c.xhtml", textRange: 10..<17, quote: TextQuote(exact: "nowhere"))
        #expect(QuoteAnchoring.locate(straddling, in: short) == .orphaned)
        let empty = AnnotationTarget(href: "c.xhtml", quote: TextQuote(exact: "anything"))
        #expect(QuoteAnchoring.locate(empty, in: "") == .orphaned)
        let blankQuote = AnnotationTarget(href: "c.xhtml", textRange: 0..<2, quote: TextQuote(exact: "  \n"))
        #expect(QuoteAnchoring.locate(blankQuote, in: short) == .placed(0..<2))
    }

    @Test func offsetsAreGraphemeClusters() {
        let text = "👩‍👩‍👧 e\u{301}tait là, puis il était parti"
        let target = AnnotationTarget(href: "c.xhtml", quote: TextQuote(exact: "il était"))
        guard case .reanchored(let range) = QuoteAnchoring.locate(target, in: text) else {
            Issue.record("not found")
            return
        }
        #expect(range == 17..<25)
        #expect(String(Array(text)[range]) == "il était")
    }

    @Test func aPageLevelNoteWithARangeInTheTextIsPlaced() {
        let target = AnnotationTarget(href: "c.xhtml", textRange: 0..<3)
        #expect(QuoteAnchoring.locate(target, in: "abcdef") == .placed(0..<3))
    }
}

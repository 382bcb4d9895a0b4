import Testing
import TestSupport
@testable import TextLayout

@Suite struct BookSearchTests {
    func ranges(_ query: String, in text: String, _ options: TextSearchOptions = TextSearchOptions()) throws -> [String] {
        let searchable = SearchableText(text)
        return try searchable.ranges(of: query, options: options).map { String(searchable.substring($0)) }
    }

    @Test func ignoresCaseAndAccentsByDefault() throws {
        #expect(try ranges("ecole", in: "L'École, l'ÉCOLE et l'ecole.") == ["École", "ÉCOLE", "ecole"])
        // A decomposed accent (e + U+0301) is the same letter.
        #expect(try ranges("école", in: "une e\u{301}cole") == ["e\u{301}cole"])
        // Arabic harakat and Hebrew points are accents.
        #expect(try ranges("كتب", in: "قد كَتَبَ الدرس") == ["كَتَبَ"])
        #expect(try ranges("שלום", in: "אמר שָׁלוֹם") == ["שָׁלוֹם"])
        // Greek: tonos and final sigma.
        #expect(try ranges("λογος", in: "ὁ λόγος") == ["λόγος"])
    }

    @Test func caseAndAccentsCanMatter() throws {
        let text = "École ecole ÉCOLE Ecole"
        #expect(try ranges("École", in: text, TextSearchOptions(caseSensitive: true)) == ["École", "Ecole"])
        #expect(try ranges("ecole", in: text, TextSearchOptions(diacriticSensitive: true)) == ["ecole", "Ecole"])
        #expect(try ranges("Ecole", in: text, TextSearchOptions(caseSensitive: true, diacriticSensitive: true)) == ["Ecole"])
    }

    @Test func wholeWordsAndScriptsWithoutSpaces() throws {
        let text = "cat concatenate cat. Cat_x (cat)"
        #expect(try ranges("cat", in: text, TextSearchOptions(wholeWord: true)).count == 3)
        #expect(try ranges("cat", in: text).count == 5)
        // Japanese has no word boundaries to respect.
        #expect(try ranges("考え", in: "山路を登りながら、こう考えた。", TextSearchOptions(wholeWord: true)) == ["考え"])
        // A Thai vowel sign is part of its letter: กิ does not contain a match for ก followed by something else.
        #expect(try ranges("กิน", in: "ฉันกินข้าว") == ["กิน"])
        #expect(try ranges("ก", in: "กิน").isEmpty)
    }

    @Test func regularExpressions() throws {
        let options = TextSearchOptions(regularExpression: true)
        #expect(try ranges("wh[a-z]+e", in: "The White whale; a whole while.", options) == ["White whale", "whole while"].flatMap { $0.split(separator: " ").map(String.init) })
        #expect(try ranges("\\bcat\\b", in: "cat concat cat", options) == ["cat", "cat"])
        #expect(throws: TextSearchError.invalidRegularExpression("(unclosed")) {
            try SearchableText("x").ranges(of: "(unclosed", options: options)
        }
    }

    @Test func bookSearchListsHitsWithSnippetsInReadingOrder() throws {
        var index = BookTextIndex(chapterCount: 3)
        index.set(SearchableText("First chapter.\nThe whale is here.\n"), chapter: 0)
        index.set(SearchableText("Nothing.\n"), chapter: 1)
        #expect(!index.isComplete)
        index.set(SearchableText("A WHALE again, and a whale.\n"), chapter: 2)
        #expect(index.isComplete)
        let hits = try index.search("whale")
        #expect(hits.map(\.chapter) == [0, 2, 2])
        #expect(hits.map(\.range) == [19..<24, 2..<7, 21..<26])
        let snippet = hits[0].snippet
        #expect(snippet.contains("First chapter. The whale is here."))
        #expect(Array(snippet)[hits[0].matchInSnippet].map(String.init).joined() == "whale")
        #expect(try index.search("zebra").isEmpty)
    }

    // MARK: - Against a naive reference

    /// Deterministic pseudo-random numbers (a test must fail the same way twice).
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 11 ^ state
        }
    }

    static let pieces: [String] = ["a", "b", "e", "é", "e\u{301}", "É", "E", " ", "\n", "ß", "İ", "i", "ﬁ", "ς", "σ", "Σ",
                                   "中", "文", "考", "ก", "กิ", "ข้", "ب", "بَ", "ﻻ", "👩‍👩‍👧", "🇫🇷", "\u{202E}", "x", "’", "-",
                                   "Ω", "ω", "ǅ", "ǆ", "\u{0301}", "ё", "е", "ø", "o"]

    /// Every occurrence, by trying each character as a start (greedy, no overlaps).
    static func naive(_ query: String, in text: String) -> [Range<Int>] {
        let characters = Array(text)
        let wanted = TextFolding.fold(query)
        guard !wanted.isEmpty else { return [] }
        var result: [Range<Int>] = []
        var start = 0
        while start < characters.count {
            var folded = ""
            var end = start
            var matched = false
            while end < characters.count, folded.utf8.count < wanted.utf8.count {
                folded += TextFolding.fold(characters[end])
                end += 1
                if folded == wanted { matched = true; break }
            }
            if matched {
                result.append(start..<end)
                start = end
            } else {
                start += 1
            }
        }
        return result
    }

    @Test func matchesTheNaiveSearchOnGeneratedText() throws {
        var generator = Generator(state: 15)
        for round in 0..<300 {
            let length = Int.random(in: 0...400, using: &generator)
            let text = (0..<length).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
            let characters = Array(text)
            var queries = (0..<3).map { _ in (1...3).map { _ in Self.pieces.randomElement(using: &generator)! }.joined() }
            if characters.count > 4 {
                let start = Int.random(in: 0..<(characters.count - 3), using: &generator)
                queries.append(String(characters[start..<(start + Int.random(in: 1...3, using: &generator))]))
            }
            let searchable = SearchableText(text)
            #expect(searchable.length == characters.count)
            for query in queries where !TextFolding.fold(query).isEmpty {
                let found = try searchable.ranges(of: query)
                #expect(found == Self.naive(query, in: text), "round \(round): \(query.debugDescription) in \(text.debugDescription)")
            }
        }
    }

    @Test func theGeneratedDiacriticTableIsUpToDate() throws {
        let generated = try Command.run(["python3", Fixtures.repositoryRoot + "/Sources/TextLayout/Unicode/generate_diacritic_table.py"])
        let committed = Fixtures.bytes(Fixtures.repositoryRoot + "/Sources/TextLayout/Unicode/DiacriticTable.swift")
        #expect(generated == committed, "regenerate DiacriticTable.swift with generate_diacritic_table.py")
        #expect(diacriticLetters == diacriticLetters.sorted())
    }
}

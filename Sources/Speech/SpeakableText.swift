import Shared
import TextLayout

/// A chapter's text as it is read aloud: the reader's text (``TextDocument/plainText``, whose
/// `Character` offsets are the reader's positions) cut into sentences, and what of it is not
/// said — note reference markers (`¹`, `[2]`), ruby annotations (the reading of the text
/// before them) and generated decoration. Page-break numbers
/// never reach the text (the layout keeps only their anchors).
public struct SpeakableText: Sendable {
    /// The href of the chapter.
    public let href: String
    /// The chapter's language (`xml:lang`, else the publication's), when known.
    public let language: String?
    /// The text, one element per reader position.
    public let characters: [Character]
    /// The sentences, covering ``characters`` exactly, in order.
    public let sentences: [Range<Int>]
    /// The positions not read aloud.
    private let silent: [Bool]
    /// The language of each sentence's block, when it differs from the chapter's.
    private let blockLanguages: [String?]
    /// The document, for the locators of sentences.
    let document: TextDocument?

    /// The text of `document`, split by the rules of its language (or `fallbackLanguage`).
    public init(document: TextDocument, fallbackLanguage: String? = nil) {
        let characters = Array(document.plainText)
        var silent = [Bool](repeating: false, count: characters.count)
        for block in document.blocks {
            var pieces: [(Int, InlineText)] = []
            if let table = block.table {
                for row in table.rows { for cell in row { pieces.append((cell.offset, cell.text)) } }
            } else {
                pieces.append((block.offset, block.text))
            }
            for (offset, text) in pieces {
                for index in 0..<text.count where offset + index < silent.count {
                    switch text.style(at: index).role {
                    // A ruby annotation is the reading of its base text: said once, as the base.
                    case .noteReference, .decoration, .rubyAnnotation: silent[offset + index] = true
                    default: break
                    }
                }
            }
        }
        let language = document.language ?? fallbackLanguage
        let sentences = Self.sentences(of: characters, silent: silent, splitter: SentenceSplitter(language: language))
        self.init(href: document.href, language: language, characters: characters, sentences: sentences, silent: silent,
                  document: document, blockLanguages: sentences.map { sentence in
                      document.blockIndex(containing: sentence.lowerBound).flatMap { document.blocks[$0].language }
                  })
    }

    /// Plain text (a test, or a format without a document): nothing silent.
    public init(href: String, text: String, language: String?) {
        let characters = Array(text)
        let sentences = SentenceSplitter(language: language).sentences(in: characters)
        self.init(href: href, language: language, characters: characters, sentences: sentences,
                  silent: [Bool](repeating: false, count: characters.count), document: nil, blockLanguages: sentences.map { _ in nil })
    }

    private init(href: String, language: String?, characters: [Character], sentences: [Range<Int>], silent: [Bool],
                 document: TextDocument?, blockLanguages: [String?]) {
        self.document = document
        self.href = href
        self.language = language
        self.characters = characters
        self.sentences = sentences
        self.silent = silent
        self.blockLanguages = blockLanguages
    }

    /// The sentences of `characters` as if the silent ones were not there (`late.¹ Then`
    /// ends a sentence after the marker), mapped back to ranges that cover every character.
    private static func sentences(of characters: [Character], silent: [Bool], splitter: SentenceSplitter) -> [Range<Int>] {
        var kept: [Character] = []
        var origins: [Int] = []
        for (offset, character) in characters.enumerated() where !silent[offset] {
            kept.append(character)
            origins.append(offset)
        }
        let cuts = splitter.sentences(in: kept).dropLast().map { origins[$0.upperBound] }
        var result: [Range<Int>] = []
        var start = 0
        for cut in cuts + [characters.count] where cut > start {
            result.append(start..<cut)
            start = cut
        }
        if start < characters.count {
            if let last = result.popLast() { result.append(last.lowerBound..<characters.count) } else { result.append(0..<characters.count) }
        }
        return result
    }

    /// The text of sentence `index`, as in the chapter.
    public func text(ofSentence index: Int) -> String {
        String(characters[sentences[index]])
    }

    /// What is said for sentence `index`: its text without the silent positions, and for each
    /// Unicode scalar of it the chapter position it comes from (word events are in scalars).
    public func spoken(sentence index: Int) -> SpokenSentence {
        let range = sentences[index]
        var text = ""
        var positions: [Int] = []
        for offset in range where !silent[offset] {
            let character = characters[offset]
            text.append(character)
            positions.append(contentsOf: repeatElement(offset, count: character.unicodeScalars.count))
        }
        return SpokenSentence(href: href, index: index, range: range, chapterText: String(characters[range]), text: text,
                              scalarPositions: positions,
                              language: blockLanguages[index] ?? language,
                              position: document?.locator(at: range.lowerBound))
    }
}

/// One sentence ready to be synthesised.
public struct SpokenSentence: Sendable, Equatable {
    /// The chapter's href.
    public var href: String
    /// Its index among the chapter's sentences.
    public var index: Int
    /// Its positions in the chapter.
    public var range: Range<Int>
    /// Its text in the chapter (at ``range``).
    public var chapterText: String
    /// What is said (the chapter's text without note markers).
    public var text: String
    /// For each Unicode scalar of ``text``, the chapter position it comes from.
    public var scalarPositions: [Int]
    /// The language to speak it in.
    public var language: String?
    /// Where it starts, as a reading position (nil for text without a document).
    public var position: Locator?

    /// Whether there is anything to say (letters or digits).
    public var isSpeakable: Bool { text.contains { $0.isLetter || $0.isNumber } }

    /// The chapter positions of the word at scalars `offset..<offset+length` of ``text``.
    public func chapterRange(ofScalars offset: Int, length: Int) -> Range<Int>? {
        guard offset >= 0, offset < scalarPositions.count else { return nil }
        let last = min(scalarPositions.count - 1, offset + max(1, length) - 1)
        return scalarPositions[offset]..<(scalarPositions[last] + 1)
    }
}

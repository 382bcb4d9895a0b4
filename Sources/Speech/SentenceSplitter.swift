/// Cuts a chapter's text into sentences by the rules of its language: what is read aloud at
/// a time, and highlighted.
///
/// Lectern's own rules rather than ICU's sentence break iterator: loading libicu costs about
/// 3.4 MB of memory and 1 ms (10 ms from a cold cache), and its rules break after `Dr.`,
/// `e.g.`, German ordinals (`am 3.`), inside French quotes (`« Vraiment ? »`) and Japanese
/// quotes (`「本当？」と`) — each of which these rules get right (see SentenceSplitterTests).
///
/// The sentences cover the text exactly, in order: each takes the spaces and line feeds after
/// it, and the first one the spaces before it. A paragraph (a line feed) always ends one.
public struct SentenceSplitter: Sendable {
    /// The primary language subtag (`en`, `fr`, `zh`…), lower-cased.
    public let language: String
    /// A sentence longer than this (in characters) is cut after a comma or at a space, so that
    /// synthesising one never takes long.
    public let maximumLength: Int
    private let abbreviations: Set<String>
    private let ordinalFullStop: Bool

    public init(language: String?, maximumLength: Int = 500) {
        let tag = (language ?? "en").lowercased()
        let primary = String(tag.prefix { $0.isLetter })
        self.language = primary.isEmpty ? "en" : primary
        self.maximumLength = max(20, maximumLength)
        abbreviations = SentenceAbbreviations.words(for: self.language)
        ordinalFullStop = SentenceAbbreviations.writesOrdinalsWithFullStop(self.language)
    }

    /// The sentences of `text`, as ranges of `Character` offsets.
    public func sentences(in text: String) -> [Range<Int>] {
        sentences(in: Array(text))
    }

    /// The sentences of `characters`, as ranges of offsets covering all of them in order.
    public func sentences(in characters: [Character]) -> [Range<Int>] {
        var cuts: [Int] = []
        var start = 0
        var index = 0
        let count = characters.count
        func cut(at end: Int) {
            var end = end
            while end < count, characters[end].isWhitespace { end += 1 }
            cuts.append(end)
            start = end
            index = end
        }
        while index < count {
            let character = characters[index]
            if index - start >= maximumLength {
                cut(at: longSentenceCut(characters, from: start, to: index))
                continue
            }
            if character.isNewline {
                cut(at: index + 1)
            } else if CharacterClasses.unspacedTerminators.contains(character) {
                let end = afterTerminators(characters, from: index)
                let closed = afterClosers(characters, from: end)
                // Quoted speech that goes on: 「本当？」と彼は言った.
                if closed > end, closed < count, !characters[closed].isWhitespace,
                   !CharacterClasses.opens(characters[closed]), !CharacterClasses.terminates(characters[closed]) {
                    index = closed
                } else {
                    cut(at: closed)
                }
            } else if CharacterClasses.spacedTerminators.contains(character) {
                let end = afterTerminators(characters, from: index)
                let closed = afterClosers(characters, from: end)
                if endsSentence(characters, terminator: index, runEnd: end, after: closed) {
                    cut(at: closed)
                } else {
                    index = max(closed, index + 1)
                }
            } else {
                index += 1
            }
        }
        if start < count { cuts.append(count) }
        return ranges(from: cuts, in: characters)
    }

    /// Whether the terminators at `terminator..<runEnd`, closed up to `after`, end the sentence.
    private func endsSentence(_ characters: [Character], terminator: Int, runEnd: Int, after: Int) -> Bool {
        let count = characters.count
        guard after < count else { return true }
        // `3.14`, `example.com/a.b`, `?q=1`: a stop inside a word or number, or a URL.
        guard characters[after].isWhitespace else { return false }
        var next = after
        while next < count, characters[next].isWhitespace, !characters[next].isNewline { next += 1 }
        guard next < count, !characters[next].isNewline else { return true }
        while next < count, CharacterClasses.opens(characters[next]) || characters[next].isWhitespace { next += 1 }
        guard next < count else { return true }
        // `Wait... what?`, `"Go!" he said`, `e.g. at noon`.
        if characters[next].isLowercase { return false }
        guard characters[terminator] == ".", runEnd == terminator + 1 else { return true }
        let word = wordBefore(characters, terminator)
        if word.count == 1, word.first?.isLetter == true { return false }
        if abbreviations.contains(word) { return false }
        if ordinalFullStop, !word.isEmpty, word.allSatisfy(\.isNumber), characters[next].isLetter { return false }
        return true
    }

    /// The end of a run of terminators (`?!`, `...`, `?..`).
    private func afterTerminators(_ characters: [Character], from index: Int) -> Int {
        var end = index + 1
        while end < characters.count, CharacterClasses.terminates(characters[end]) { end += 1 }
        return end
    }

    /// After the closing quotes and brackets that follow a stop; French puts a space before
    /// `»` (`« Vraiment ? »`), which is taken too.
    private func afterClosers(_ characters: [Character], from index: Int) -> Int {
        var end = index
        while end < characters.count {
            if CharacterClasses.closes(characters[end]) {
                end += 1
            } else if end + 1 < characters.count, characters[end] == " " || characters[end] == "\u{00A0}" || characters[end] == "\u{202F}",
                      CharacterClasses.spacedClosers.contains(characters[end + 1]) {
                end += 2
            } else {
                break
            }
        }
        return end
    }

    /// The word before a full stop, lower-cased, without the quotes or brackets that open it.
    private func wordBefore(_ characters: [Character], _ stop: Int) -> String {
        var begin = stop
        while begin > 0, !characters[begin - 1].isWhitespace, !CharacterClasses.opens(characters[begin - 1]) { begin -= 1 }
        return String(characters[begin..<stop]).lowercased()
    }

    /// Where to cut a sentence that has grown too long: after the last comma, semicolon or
    /// colon, else at the last space, else where it is.
    private func longSentenceCut(_ characters: [Character], from start: Int, to end: Int) -> Int {
        var space: Int?
        var position = end
        while position > start + 1 {
            position -= 1
            guard characters[position].isWhitespace else { continue }
            if [",", ";", ":", "、", "，", "；"].contains(characters[position - 1]) { return position }
            if space == nil { space = position }
        }
        return space ?? end
    }

    /// Ranges between the cuts; a piece with nothing but spaces joins the sentence before it.
    private func ranges(from cuts: [Int], in characters: [Character]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var start = 0
        for cut in cuts where cut > start {
            let blank = characters[start..<cut].allSatisfy(\.isWhitespace)
            if blank, let last = result.last {
                result[result.count - 1] = last.lowerBound..<cut
            } else {
                result.append(start..<cut)
            }
            start = cut
        }
        return result
    }
}

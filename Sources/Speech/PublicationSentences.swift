import Shared
import Synchronization
import TextLayout

/// The sentences of a publication's reading order, chapter after chapter, each chapter's
/// text loaded when its first sentence is asked for (the text the reader shows: EPUB, plain
/// text, Markdown, HTML…). Chapters without text (pictures, audio) are passed over.
public final class PublicationSentences: Sendable {
    private struct State: Sendable {
        var item = 0
        var chapter: SpeakableText?
        var sentence = 0
    }

    private let publication: Publication
    private let loader: ContentDocumentLoader
    private let state = Mutex(State())

    public init(publication: Publication) {
        self.publication = publication
        loader = ContentDocumentLoader(publication: publication)
    }

    /// Starts at the sentence that holds `locator` (its text, else its progression, else its
    /// fragment, as the reader finds a place); false when its href is not in the reading order.
    public func start(at locator: Locator) throws(SpeechError) -> Bool {
        // Hrefs are compared decoded (`一.xhtml` is `%E4%B8%80.xhtml`), and may omit the package folder.
        func decoded(_ href: String) -> String { Href.percentDecoded(Href.removingFragment(href)) ?? Href.removingFragment(href) }
        let target = decoded(locator.href)
        guard let item = publication.readingOrder.firstIndex(where: {
            let href = decoded($0.href)
            return href == target || href.hasSuffix("/" + target)
        }) else { return false }
        return try state.withLock { state throws(SpeechError) -> Bool in
            state = State(item: item, chapter: nil, sentence: 0)
            guard try loadChapter(&state), let chapter = state.chapter else { return false }
            // A chapter without text before it moved `item` on: the place is that chapter's start.
            guard state.item == item, let document = chapter.document else { return true }
            let offset = document.offset(for: locator)
            state.sentence = chapter.sentences.firstIndex { $0.contains(offset) } ?? 0
            return true
        }
    }

    /// Moves `delta` sentences on from the next one to say (back when negative), across
    /// chapters, stopping at the book's first sentence or after its last; returns the place of
    /// the sentence now next (nil past the end).
    @discardableResult
    public func move(by delta: Int) throws(SpeechError) -> Locator? {
        try state.withLock { state throws(SpeechError) -> Locator? in
            guard try loadChapter(&state), let chapter = state.chapter else { return nil }
            var target = state.sentence + delta
            var current = chapter
            while target < 0 {
                // Back into the chapters before, each loaded to count its sentences.
                guard let (item, previous) = try previousChapter(before: state.item) else { target = 0; break }
                state.item = item
                current = previous
                target += previous.sentences.count
            }
            while target >= current.sentences.count {
                target -= current.sentences.count
                state.item += 1
                state.chapter = nil
                guard try loadChapter(&state), let next = state.chapter else { return nil }
                current = next
            }
            state.chapter = current
            state.sentence = target
            return current.spoken(sentence: target).position
        }
    }

    /// The nearest chapter with text before reading-order item `item`.
    private func previousChapter(before item: Int) throws(SpeechError) -> (Int, SpeakableText)? {
        var index = item - 1
        while index >= 0 {
            var probe = State(item: index, chapter: nil, sentence: 0)
            if try loadChapter(&probe), probe.item == index, let chapter = probe.chapter { return (index, chapter) }
            index -= 1
        }
        return nil
    }

    /// Whether any chapter has text to read (loads chapters up to the first that has).
    public var hasText: Bool {
        (try? state.withLock { state throws(SpeechError) in try loadChapter(&state) }) ?? false
    }

    /// The next sentence, nil after the last one.
    /// - Throws: a chapter cannot be read (damaged, or its decryption failed).
    public func next() throws(SpeechError) -> SpokenSentence? {
        try state.withLock { state throws(SpeechError) -> SpokenSentence? in
            guard try loadChapter(&state), let chapter = state.chapter else { return nil }
            var spoken = chapter.spoken(sentence: state.sentence)
            let count = publication.readingOrder.count
            if let progression = spoken.position?.locations.progression, count > 0 {
                spoken.position?.locations.totalProgression = (Double(state.item) + progression) / Double(count)
            }
            state.sentence += 1
            if state.sentence >= chapter.sentences.count {
                state.chapter = nil
                state.sentence = 0
                state.item += 1
            }
            return spoken
        }
    }

    /// Makes `state.chapter` the current chapter with sentences left; false at the end.
    private func loadChapter(_ state: inout State) throws(SpeechError) -> Bool {
        while state.chapter == nil {
            guard state.item < publication.readingOrder.count else { return false }
            let link = publication.readingOrder[state.item]
            do throws(ContentLoadError) {
                let document = try loader.load(link)
                let text = SpeakableText(document: document, fallbackLanguage: publication.metadata.languages.first)
                if !text.sentences.isEmpty {
                    state.chapter = text
                    state.sentence = 0
                    return true
                }
            } catch {
                if case .resource = error { throw .engineFailed(error.userMessage) }
            }
            state.item += 1
        }
        return true
    }
}

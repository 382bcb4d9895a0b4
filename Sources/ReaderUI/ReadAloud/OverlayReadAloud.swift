import AudioPlayback
import ReadAloud
import Shared
import Streamer
import TextLayout

/// Reads a narrated EPUB aloud from its media overlays: the overlays are read and parsed off
/// the main actor (through the publication, so decrypted in memory for a protected book), then
/// a ``MediaOverlayPlayer`` plays them through libmpv, whose work is on its own threads; the
/// player's callbacks become ``ReadAloudEvent``s. Phrases with text and no audio are said by
/// espeak-ng (``OverlayTextSpeech``) when it is there.
@MainActor
final class OverlayReadAloud: ReadAloudEngine {
    let events: AsyncStream<ReadAloudEvent>
    let name = "narration"
    let speedRange = MediaOverlayPlayer.speedRange

    private let continuation: AsyncStream<ReadAloudEvent>.Continuation
    private let player: MediaOverlayPlayer
    private let textSpeech: OverlayTextSpeech
    /// The text-only phrases given to speech, in order (for tests).
    private(set) var spokenPhrases: [Int] = []
    /// The whole second last reported, so that the clock is reported once a second.
    private var lastSecond = -1
    private var stopped = false

    private init(player: MediaOverlayPlayer, textSpeech: OverlayTextSpeech) {
        self.player = player
        self.textSpeech = textSpeech
        (events, continuation) = AsyncStream.makeStream(of: ReadAloudEvent.self)
        player.onPhrase = { [weak self] index in self?.phraseStarted(index) }
        player.onChange = { [weak self] in self?.changed() }
        player.onTextOnly = { [weak self] index in self?.say(index) ?? false }
    }

    /// Starts reading at the first phrase at or after `pageStart` in chapter `chapter` (else the
    /// next chapter's first phrase).
    /// - Parameters:
    ///   - anchors: the offsets of the chapter's elements by id.
    ///   - chapterOf: the reader's chapter of a content document's href.
    ///   - readSkippable: page numbers, notes, sidebars… read too (`[reader] read_skippable`).
    ///   - environment: `LECTERN_AUDIO_OUTPUT=null` plays to no device.
    static func start(publication: Publication, chapter: Int, pageStart: Int, anchors: [String: Int],
                      chapterOf: (String) -> Int?, containing: Bool = false, readSkippable: Bool = false, speed: Double,
                      environment: [String: String]) async throws(ReadAloudError) -> OverlayReadAloud {
        let book: MediaOverlayBook
        do {
            book = try await Blocking.attempt { () throws(MediaOverlayError) in try MediaOverlayBook(publication: publication) }
        } catch {
            throw ReadAloudError(error.userMessage)
        }
        let player: MediaOverlayPlayer
        let output = AudioOutput.resolved(.system, environment: environment)
        do {
            // The reader draws on the terminal: the audio libraries must not print there.
            player = try MediaOverlayPlayer(book: book, publication: publication, output: output,
                                            skipping: readSkippable ? [] : MediaOverlayStructures.skippable, quietStandardError: true)
        } catch {
            throw ReadAloudError(error.userMessage)
        }
        let textSpeech = OverlayTextSpeech(publication: publication, book: book, environment: environment, nullOutput: output == .null)
        let engine = OverlayReadAloud(player: player, textSpeech: textSpeech)
        let first = startIndex(player.timeline.entries.map { ($0.phrase.textHref, $0.phrase.fragment) }, chapter: chapter,
                               pageStart: pageStart, anchors: anchors, chapterOf: chapterOf, containing: containing)
        player.setSpeed(speed)
        player.go(toPhrase: first)
        player.play()
        return engine
    }

    /// The phrase to start with: the first of `chapter` whose element starts at or after
    /// `pageStart`; else the first of a later chapter; else the last of `chapter`; else the first.
    /// `containing` (a selection's start, inside a phrase): the last phrase of `chapter` whose
    /// element starts at or before `pageStart`, when there is one.
    static func startIndex(_ phrases: [(href: String, fragment: String?)], chapter: Int, pageStart: Int,
                           anchors: [String: Int], chapterOf: (String) -> Int?, containing: Bool = false) -> Int {
        if containing, let holding = phrases.indices.last(where: { index in
            chapterOf(phrases[index].href) == chapter && (phrases[index].fragment.flatMap { anchors[$0] } ?? .max) <= pageStart
        }) {
            return holding
        }
        var lastOfChapter: Int?
        for (index, phrase) in phrases.enumerated() {
            guard let phraseChapter = chapterOf(phrase.href), phraseChapter >= chapter else { continue }
            if phraseChapter > chapter { return index }
            if (phrase.fragment.flatMap { anchors[$0] } ?? 0) >= pageStart { return index }
            lastOfChapter = index
        }
        return lastOfChapter ?? 0
    }

    func setPaused(_ paused: Bool) {
        textSpeech.setPaused(paused)
        paused ? player.pause() : player.play()
    }

    func setSpeed(_ speed: Double) { player.setSpeed(speed) }

    func step(by delta: Int) {
        guard let index = player.phraseIndex else { return }
        player.go(toPhrase: index + delta)
    }

    func escape() -> Bool { player.escape() }

    func go(toParagraph offset: Int, forward: Bool, href: String, document: TextDocument) -> Bool {
        let entries = player.timeline.entries
        let here = entries.indices.filter { entries[$0].phrase.textHref == href }
        func anchor(_ index: Int) -> Int? { entries[index].phrase.fragment.flatMap { document.anchors[$0]?.offset } }
        let target: Int?
        if forward {
            // Past the document's last paragraph: the first phrase of the next one.
            target = here.first { (anchor($0) ?? -1) >= offset }
                ?? player.phraseIndex.flatMap { current in entries[(current + 1)...].firstIndex { $0.phrase.textHref != href } }
        } else if let last = here.last(where: { (anchor($0) ?? .max) < offset }), let block = anchor(last).flatMap(document.blockIndex) {
            // Back: the first phrase of the paragraph holding the last phrase before this one
            // (paragraphs without narration are passed).
            target = here.first { (anchor($0) ?? -1) >= document.blocks[block].offset }
        } else {
            target = nil
        }
        guard let target else { return false }
        player.go(toPhrase: target)
        return true
    }

    func stop() {
        guard !stopped else { return }
        stopped = true
        player.onPhrase = nil
        player.onChange = nil
        player.onTextOnly = nil
        textSpeech.stop()
        player.close()
        continuation.finish()
    }

    /// Says text-only phrase `index` (or goes on saying it after a pause); false without speech.
    private func say(_ index: Int) -> Bool {
        guard textSpeech.isAvailable, player.timeline.entries.indices.contains(index) else { return false }
        if textSpeech.isSaying(index) { return true }
        spokenPhrases.append(index)
        textSpeech.say(player.timeline.entries[index].phrase, index: index, speed: player.speed) { [weak self] in
            self?.player.textOnlyDone(index)
        }
        return true
    }

    private func phraseStarted(_ index: Int) {
        // Another phrase: the one being said (a move, a key) is over.
        if !textSpeech.isSaying(index) { textSpeech.cancel() }
        let entries = player.timeline.entries
        guard entries.indices.contains(index) else { return }
        let phrase = entries[index].phrase
        // The next phrase of the same document ends this one's text.
        let next = entries.indices.contains(index + 1) && entries[index + 1].phrase.textHref == phrase.textHref
            ? entries[index + 1].phrase.fragment : nil
        let place: ReadAloudSpan.Place = phrase.fragment.map { .element(fragment: $0, until: next) } ?? .range(0..<0)
        continuation.yield(.span(ReadAloudSpan(href: phrase.textHref, place: place, number: index + 1, total: entries.count)))
    }

    private func changed() {
        if let error = player.error {
            continuation.yield(.failed(error))
        } else if player.hasEnded {
            continuation.yield(.finished)
        } else {
            let second = Int(player.bookTime)
            guard second != lastSecond else { return }
            lastSecond = second
            continuation.yield(.time(player.bookTime, of: player.timeline.duration))
        }
    }
}

import AudioPlayback
import FoundationEssentials
import TextLayout

/// Read-aloud in the reader: the engine reading, what it reads now (highlighted on the page,
/// which follows it), the pause and the speed, and the status line that says so.
///
/// One session at most per open book, found by ``of(_:)``; it ends when the reading stops
/// (Escape, the end of the book, an error) or the book closes (its task is cancelled).
@MainActor
final class ReadAloudSession {
    enum Phase: Equatable { case starting, reading, paused }

    private(set) weak var book: BookController?
    /// Whether it reads the book's narration (media overlays) rather than speaking its text.
    let narrated: Bool
    /// The key that pauses and resumes, for the status line.
    let keyName: String
    var engine: (any ReadAloudEngine)?
    var phase = Phase.starting
    /// What is being read.
    var current: ReadAloudSpan?
    /// The narration's clock: seconds into the book, of its duration.
    var time: (position: Double, duration: Double)?
    private(set) var speed = 1.0
    private(set) var hasEnded = false
    /// When the sleep timer stops the reading, on ``clock``.
    var sleepDeadline: Double?

    private static var sessions: [ObjectIdentifier: ReadAloudSession] = [:]
    /// The environment the engines are chosen by (`LECTERN_AUDIO_OUTPUT=null`, the espeak-ng
    /// variables): the process's, or what an in-process test sets.
    static var environment = ProcessInfo.processInfo.environment
    /// The clock of the sleep timer, in seconds: monotonic, or what an in-process test sets.
    static var clock: @MainActor () -> Double = ReadAloudSleep.monotonic

    init(book: BookController, narrated: Bool, keyName: String) {
        self.book = book
        self.narrated = narrated
        self.keyName = keyName
    }

    /// The session of `book`, while it reads.
    static func of(_ book: BookController) -> ReadAloudSession? {
        guard let session = sessions[ObjectIdentifier(book)], session.book === book, !session.hasEnded else { return nil }
        return session
    }

    /// Makes this the session of its book.
    func begin() {
        guard let book else { return }
        Self.sessions[ObjectIdentifier(book)] = self
    }

    /// Stops the engine and forgets the session (its highlight goes with it).
    func end() {
        guard !hasEnded else { return }
        hasEnded = true
        engine?.stop()
        if let book, Self.sessions[ObjectIdentifier(book)] === self { Self.sessions[ObjectIdentifier(book)] = nil }
        // Sessions of books closed without ending theirs (their book is gone).
        Self.sessions = Self.sessions.filter { $0.value.book != nil }
    }

    func togglePause() {
        guard let engine else { return }
        switch phase {
        case .starting: return
        case .reading: phase = .paused
        case .paused: phase = .reading
        }
        engine.setPaused(phase == .paused)
    }

    /// Faster (positive `step`) or slower, within the engine's range.
    func changeSpeed(by step: Double) {
        guard let engine else { return }
        let value = min(max(speed + step, engine.speedRange.lowerBound), engine.speedRange.upperBound)
        guard value != speed else { return }
        speed = value
        engine.setSpeed(value)
    }

    /// Takes in what the engine reports.
    func take(_ event: ReadAloudEvent) {
        switch event {
        case .span(let span): current = span
        case .word(let href, let range):
            if current?.href == href { current?.word = range }
        case .time(let position, let duration): time = (position, duration)
        case .finished, .failed: break
        }
    }

    /// The line for the status bar: what plays, where, how fast, and the keys.
    var statusText: String {
        let keys = "\(keyName) \(phase == .paused ? "resume" : "pause") · esc stop"
        guard phase != .starting, let engine else { return "Read aloud: starting… · esc stop" }
        var parts = [phase == .paused ? "❚❚ Read aloud" : "▶ Read aloud", engine.name]
        if let current {
            parts.append(current.total.map { "\(current.number)/\($0)" } ?? "sentence \(current.number)")
        }
        if let time, narrated { parts.append("\(TimeText.clock(time.position)) / \(TimeText.clock(time.duration))") }
        parts.append(Self.speedText(speed))
        if let minutes = sleepMinutesLeft { parts.append("⏾ \(ReadAloudSleep.text(minutes: Double(minutes)))") }
        return parts.joined(separator: " · ") + " — " + keys
    }

    /// The whole minutes left on the sleep timer (a started one counts).
    var sleepMinutesLeft: Int? {
        sleepDeadline.map { Int((max(0, $0 - Self.clock()) / 60).rounded(.up)) }
    }

    static func speedText(_ speed: Double) -> String {
        let hundredths = Int((speed * 100).rounded())
        var text = "\(hundredths / 100)"
        if hundredths % 100 != 0 {
            var fraction = String(hundredths % 100)
            if fraction.count < 2 { fraction = "0" + fraction }
            if fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text + "×"
    }

    /// Where the words being read are in `document` (the chapter shown), and how each is
    /// painted: the phrase or sentence, and the word being said inside it.
    func highlights(in document: TextDocument) -> [(Range<Int>, HighlightPaint)] {
        guard let current, let range = Self.range(of: current.place, in: document) else { return [] }
        var result: [(Range<Int>, HighlightPaint)] = []
        // The first paint found for a cell wins: the word before its sentence.
        if let word = current.word, range.contains(word.lowerBound) { result.append((word, .element(.readAloudWord))) }
        result.append((range, .element(.readAloud)))
        return result
    }

    /// The offsets a place covers in `document`: an element's, up to the next phrase's element
    /// or the end of its blocks, whichever comes first (an anchor knows where an inline
    /// element starts, not where it ends).
    static func range(of place: ReadAloudSpan.Place, in document: TextDocument) -> Range<Int>? {
        switch place {
        case .range(let range):
            let clipped = max(0, range.lowerBound)..<min(document.length, max(range.lowerBound, range.upperBound))
            return clipped.isEmpty ? nil : clipped
        case .element(let fragment, let until):
            guard let anchor = document.anchors[fragment] else { return nil }
            let blocks = document.blocks
            let blocksEnd = anchor.blocks.upperBound > 0 && anchor.blocks.upperBound <= blocks.count
                ? blocks[anchor.blocks.upperBound - 1].offset + blocks[anchor.blocks.upperBound - 1].length : document.length
            let next = until.flatMap { document.anchors[$0]?.offset }.flatMap { $0 > anchor.offset ? $0 : nil } ?? blocksEnd
            let end = max(anchor.offset, min(blocksEnd, next))
            return anchor.offset < end ? anchor.offset..<end : nil
        }
    }

    /// Where the page should be for what is read now: the word said, else the start.
    func offsetToShow(in document: TextDocument) -> Int? {
        guard let current else { return nil }
        if let word = current.word { return word.lowerBound }
        return Self.range(of: current.place, in: document)?.lowerBound
    }
}

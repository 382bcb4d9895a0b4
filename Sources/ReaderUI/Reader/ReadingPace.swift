import FoundationEssentials

/// What tells the time to the reading pace: the system clock, or a test's own (so that tests
/// drive time without sleeping).
public protocol ReadingClock: Sendable {
    func now() -> Date
}

/// The system clock.
public struct SystemReadingClock: ReadingClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// The person's reading speed, measured from page turns: the characters of each page read
/// forward, over the time it stayed on screen. A page left longer than ``idleLimit`` (the
/// person went away) and jumps (search, contents, several pages at once) are not counted.
/// Until enough is known, a common adult speed stands in.
public struct ReadingPace: Sendable {
    /// A page shown longer than this was not being read all that time.
    public static let idleLimit: TimeInterval = 180
    /// Characters per minute before the person's own speed is known (about 200 words).
    public static let defaultCharactersPerMinute = 1000.0
    /// What must be measured before the person's speed replaces the default.
    public static let minimumSeconds: TimeInterval = 120
    public static let minimumCharacters = 1500

    /// Reading measured: time and characters.
    public private(set) var activeSeconds: TimeInterval
    public private(set) var characters: Int
    /// Pages turned forward while reading (this session).
    public private(set) var pagesTurned = 0
    /// The page on screen: its chapter, first character, characters and since when.
    private var current: (chapter: Int, offset: Int, length: Int, since: Date)?

    /// A pace that starts from what was measured before (other sessions).
    public init(activeSeconds: TimeInterval = 0, characters: Int = 0) {
        self.activeSeconds = activeSeconds
        self.characters = characters
    }

    /// Adds what was measured in other sessions (read from the library after opening).
    public mutating func include(seconds: TimeInterval, characters: Int) {
        activeSeconds += max(0, seconds)
        self.characters += max(0, characters)
    }

    /// The page now shown starts at `offset` in `chapter` and holds `length` characters.
    public mutating func show(chapter: Int, offset: Int, length: Int, at time: Date) {
        defer { current = (chapter, offset, max(0, length), time) }
        guard let previous = current else { return }
        let seconds = time.timeIntervalSince(previous.since)
        let read = offset - previous.offset
        // The next page (or a little more): the previous one was read.
        let turnedOnePage = previous.chapter == chapter && read > 0 && read <= previous.length + previous.length / 2
            || chapter == previous.chapter + 1 && offset == 0
        guard turnedOnePage, previous.length > 0 else { return }
        pagesTurned += 1
        guard seconds > 0, seconds <= Self.idleLimit else { return }
        activeSeconds += seconds
        characters += previous.length
    }

    /// The person's characters per minute, or the default until enough is measured.
    public var charactersPerMinute: Double {
        guard isMeasured else { return Self.defaultCharactersPerMinute }
        return Double(characters) / (activeSeconds / 60)
    }

    /// Whether the speed is the person's own (else the default).
    public var isMeasured: Bool { activeSeconds >= Self.minimumSeconds && characters >= Self.minimumCharacters }

    /// Minutes to read `characters` at this pace.
    public func minutes(toRead characters: Int) -> Double {
        Double(max(0, characters)) / charactersPerMinute
    }

    /// "<1 min", "12 min", "3 h 05".
    public static func duration(minutes: Double) -> String {
        let rounded = Int(minutes.rounded())
        if rounded < 1 { return "<1 min" }
        if rounded < 60 { return "\(rounded) min" }
        let remainder = rounded % 60
        return "\(rounded / 60) h " + (remainder < 10 ? "0" : "") + "\(remainder)"
    }
}

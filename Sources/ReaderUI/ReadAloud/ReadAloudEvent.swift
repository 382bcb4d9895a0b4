import TextLayout

/// What is being read aloud, as the reader needs it to highlight and follow it: a place in a
/// chapter's text, never the words themselves (the page shows them).
struct ReadAloudSpan: Sendable, Equatable {
    /// Where the words are in the chapter.
    enum Place: Sendable, Equatable {
        /// A sentence: its offsets in the chapter's text (the reader's positions).
        case range(Range<Int>)
        /// An overlay phrase: the element with id `fragment`, up to the element of the next
        /// phrase of the same document (`until`) or the end of the element's blocks.
        case element(fragment: String, until: String?)
    }

    /// The content document.
    var href: String
    var place: Place
    /// The word being said inside a sentence, when the engine says where words start.
    var word: Range<Int>?
    /// Its number in what is read (the phrase's index in the book, the sentences said so far).
    var number: Int
    /// How many there are, when known (the phrases of the overlays).
    var total: Int? = nil
}

/// What a read-aloud engine reports, in the order it is heard.
enum ReadAloudEvent: Sendable, Equatable {
    /// A phrase or a sentence starts being heard.
    case span(ReadAloudSpan)
    /// A word of the current sentence starts: its offsets in the chapter.
    case word(href: String, range: Range<Int>)
    /// The clock moved (overlays: seconds into the book, of the book's duration).
    case time(Double, of: Double)
    /// Everything was read.
    case finished
    /// Reading stopped on an error, said in plain words.
    case failed(String)
}

/// Why read-aloud cannot start, in plain words for the status line.
struct ReadAloudError: Error, Sendable, Equatable {
    let userMessage: String
    init(_ userMessage: String) { self.userMessage = userMessage }
}

/// An engine reading a book aloud: it reports through ``events`` and is driven from the main
/// actor without ever blocking it (synthesis and decoding run behind it).
@MainActor
protocol ReadAloudEngine: AnyObject {
    /// Its events, ending when it stops.
    var events: AsyncStream<ReadAloudEvent> { get }
    /// `narration` (media overlays) or the speech engine's name (`espeak-ng 1.51`).
    var name: String { get }
    /// The allowed speeds.
    var speedRange: ClosedRange<Double> { get }
    func setPaused(_ paused: Bool)
    func setSpeed(_ speed: Double)
    /// Moves `delta` phrases or sentences on (back when negative), reading on from there (or
    /// waiting there when paused).
    func step(by delta: Int)
    /// Leaves the escapable structure (table, list, figure…) being read, on to what follows
    /// it; false when there is none (or the engine knows no structures).
    func escape() -> Bool
    /// Goes to a paragraph of `document` (the content document `href` being read), reading on
    /// from its first phrase or sentence: forward, the one starting at `offset` (the document's
    /// length: past its last one); back, the one before the paragraph starting at `offset`.
    /// False when there is none to go to.
    func go(toParagraph offset: Int, forward: Bool, href: String, document: TextDocument) -> Bool
    /// Stops for good and releases the sound output.
    func stop()
}

import FoundationEssentials
import Shared

/// Progress sync as the reader uses it (#32): the composition root builds it on the
/// `ProgressSync` module; the reader only asks for another device's newer place when a book
/// opens and hands over its place after page turns and when it closes. Both calls may take
/// seconds (the network) and never run on the main actor; failures are the builder's to log
/// and queue, never the reader's to show.
public struct ReaderProgressSync: Sendable {
    /// Another device's place, newer than this library's last reading of the book.
    public struct Offer: Sendable, Equatable {
        /// The device's name, as it gave it (outside text: shown sanitised).
        public var device: String
        /// How far through the book, 0…1.
        public var percentage: Double
        /// Where it is in this copy.
        public var locator: Locator

        public init(device: String, percentage: Double, locator: Locator) {
            self.device = device
            self.percentage = percentage
            self.locator = locator
        }
    }

    /// The place to offer for the book at `path`, when another device left one after `since`
    /// (the library's last reading of it; nil: never read here). Nil when there is none, it is
    /// this device's own or older, or the server cannot be reached.
    ///
    /// Both calls open the book on their own: a push when the book closes outlives the
    /// reader's copy of it.
    public var pull: @Sendable (_ path: String, _ since: Date?) async -> Offer?
    /// Pushes the place (`progress`: through the whole book, when known); a server away
    /// queues it.
    public var push: @Sendable (_ path: String, _ locator: Locator, _ progress: Double?) async -> Void

    /// How long after the last page turn the place is pushed, in nanoseconds: one push for a
    /// run of pages (25 s, as the issue asks; tests shorten it).
    public var pushDelay: UInt64 = 25_000_000_000

    public init(pull: @escaping @Sendable (String, Date?) async -> Offer?,
                push: @escaping @Sendable (String, Locator, Double?) async -> Void) {
        self.pull = pull
        self.push = push
    }

    /// How long quitting waits for the last push (the client's 2 s connect and 5 s silence).
    static let pushWaitOnQuit = 8.0
}

import Shared

/// The seam where audio playback plugs into the reader.
///
/// The reader shows an audiobook as text: its cover line, its track list with durations and
/// its table of contents, one page per track. Playing the audio is the work of a controller
/// that the executable hands to the reader through
/// ``ReaderApp/Dependencies/makeAudiobookPlayback``; without one, the audio keys say that
/// playback is not available.
///
/// The reader calls the controller on the main actor and never waits on it: loading,
/// decrypting and decoding happen behind it, and ``onChange`` reports what moved.
@MainActor
public protocol AudiobookPlaybackController: AnyObject {
    /// One line for the status line, e.g. `▶ 2/12 3:04 / 10:41 1.25× — Chapter 3`.
    var statusText: String { get }
    /// The reading-order index of the track playing, or ready to play.
    var trackIndex: Int { get }
    /// Whether playback is wanted (not paused); audio may still be loading.
    var isPlaying: Bool { get }
    /// The position, to save: the track's href with a `t=` fragment and progressions.
    var locator: Locator { get }
    /// Called after each change of state and a few times a second while the position moves.
    var onChange: (@MainActor () -> Void)? { get set }

    func togglePlayPause()
    /// Moves by `seconds` (negative: back), across track boundaries.
    func skip(by seconds: Double)
    /// Goes to `seconds` into track `index`, playing if playing.
    func go(toTrack index: Int, at seconds: Double)
    /// Goes to a saved ``locator``; false when it names no track of this book.
    @discardableResult func go(to locator: Locator) -> Bool
    func nextTrack()
    func previousTrack()
    /// The next chapter of the table of contents (media fragments), else the next track.
    func nextChapter()
    func previousChapter()
    /// Changes the playback rate by `step`, within 0.75…2×.
    func changeSpeed(by step: Double)
    /// Stops and releases the audio device (the book is being closed).
    func close()
}

/// Why playback cannot start, in plain words.
public struct AudiobookPlaybackError: Error, Sendable, UserMessageConvertible {
    public let userMessage: String
    public init(_ userMessage: String) { self.userMessage = userMessage }
}

/// Makes the playback controller of an opened audiobook.
public typealias AudiobookPlaybackFactory = @MainActor (Publication) throws(AudiobookPlaybackError) -> any AudiobookPlaybackController

extension Publication {
    /// Whether every item of the reading order is audio: an audiobook.
    var isAudiobook: Bool {
        !readingOrder.isEmpty && readingOrder.allSatisfy { $0.mediaType?.isAudio ?? false }
    }
}

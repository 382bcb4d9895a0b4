import Shared

/// The seam where audio playback plugs into the reader.
///
/// The reader shows an audiobook as text: its cover line, its track list with durations and
/// its table of contents, one page per track (the tracks are the chapters, so `]`/`[`, the
/// table of contents and bookmarks move between tracks). Playing the audio is the work of a
/// playback engine that implements this protocol and is handed to the reader through
/// ``ReaderApp/Dependencies/makeAudiobookPlayback``; without one, the play key (`a`) says that
/// playback is not available.
///
/// The reader calls the controller on the main actor, and never waits on it: methods that
/// take time (opening, decrypting and decoding a track) are `async` and must not block.
@MainActor
public protocol AudiobookPlaybackController: AnyObject {
    /// What is playing now, for the status line.
    var state: AudiobookPlaybackState { get }
    /// Starts track `index` (an index of the reading order) at `seconds` into it.
    func play(track index: Int, at seconds: Double) async throws(AudiobookPlaybackError)
    /// Pauses, keeping the position.
    func pause()
    /// Resumes after ``pause()``.
    func resume()
    /// Stops and releases the audio device (the book is being closed).
    func stop()
    /// Called whenever ``state`` changes (track ended, position moved), so the reader redraws.
    var onChange: (@MainActor () -> Void)? { get set }
}

/// Where playback is.
public struct AudiobookPlaybackState: Sendable, Hashable {
    public enum Status: Sendable, Hashable { case stopped, loading, playing, paused }
    public var status: Status
    /// The reading-order index of the track.
    public var track: Int
    /// Seconds into the track.
    public var position: Double
    public var duration: Double?

    public init(status: Status = .stopped, track: Int = 0, position: Double = 0, duration: Double? = nil) {
        self.status = status
        self.track = track
        self.position = position
        self.duration = duration
    }
}

/// Why playback failed, in plain words.
public struct AudiobookPlaybackError: Error, Sendable, UserMessageConvertible {
    public let userMessage: String
    public init(_ userMessage: String) { self.userMessage = userMessage }
}

/// Makes the playback controller of an opened audiobook (nil: no playback for it).
public typealias AudiobookPlaybackFactory = @MainActor (Publication) -> (any AudiobookPlaybackController)?

extension Publication {
    /// Whether every item of the reading order is audio: an audiobook.
    var isAudiobook: Bool {
        !readingOrder.isEmpty && readingOrder.allSatisfy { $0.mediaType?.isAudio ?? false }
    }
}

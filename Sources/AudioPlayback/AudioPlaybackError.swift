import Shared

/// Why audio cannot be played.
public enum AudioPlaybackError: Error, Sendable, Equatable, UserMessageConvertible {
    /// The audio library (libmpv) is not installed.
    case libraryUnavailable
    /// The player could not start.
    case engine(String)
    /// The publication has no audio in its reading order.
    case noAudio

    public var userMessage: String {
        switch self {
        case .libraryUnavailable: "Audio playback needs libmpv (Debian package libmpv2), which is not installed."
        case .engine(let reason): "The audio player could not start: \(reason)"
        case .noAudio: "This publication has no audio tracks."
        }
    }
}

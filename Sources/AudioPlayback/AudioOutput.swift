/// Where the decoded audio goes.
public enum AudioOutput: Sendable, Equatable {
    /// The system's sound device (PipeWire, PulseAudio or ALSA, whichever answers), falling
    /// back to no output when there is none so that the position still moves.
    case system
    /// Nowhere, in real time: for tests and machines without a sound device.
    case null

    /// The environment variable that forces ``null`` whatever is asked (tests of the reader).
    public static let environmentVariable = "LECTERN_AUDIO_OUTPUT"

    /// What a person is told when the sound device was asked for and none opened.
    public static let noDeviceNotice = "no audio device; \(environmentVariable)=null to follow the text silently"

    /// `requested`, unless `LECTERN_AUDIO_OUTPUT=null` is set.
    public static func resolved(_ requested: AudioOutput, environment: [String: String]) -> AudioOutput {
        environment[environmentVariable] == "null" ? .null : requested
    }

    /// The output for the option text `null` or `default`/`system`.
    public init?(name: String) {
        switch name.lowercased() {
        case "null", "none": self = .null
        case "default", "system", "auto": self = .system
        default: return nil
        }
    }
}

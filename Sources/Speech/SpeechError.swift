/// Why text cannot be read aloud, with what to tell the person.
public enum SpeechError: Error, Sendable, Equatable {
    /// No speech engine: libespeak-ng is not installed (or could not be loaded).
    case engineMissing(detail: String)
    /// The engine is there but its voice data is not.
    case voiceDataMissing(detail: String)
    /// No voice for the language or the name asked for.
    case noVoice(String)
    /// The engine failed.
    case engineFailed(String)
    /// The publication forbids reading aloud.
    case restricted(String)

    /// The Debian packages that read aloud.
    public static let debianPackages = "espeak-ng libespeak-ng1 espeak-ng-data"

    /// What the person is told.
    public var userMessage: String {
        switch self {
        case .engineMissing(let detail):
            return "cannot read aloud: \(detail); install the Debian packages espeak-ng, libespeak-ng1 and espeak-ng-data "
                + "(sudo apt install \(Self.debianPackages))"
        case .voiceDataMissing(let detail):
            return "cannot read aloud: \(detail); install the Debian packages espeak-ng-data and libespeak-ng1 "
                + "(sudo apt install \(Self.debianPackages))"
        case .noVoice(let voice):
            return "cannot read aloud: no voice for \(voice) (espeak-ng --voices lists them)"
        case .engineFailed(let reason):
            return "cannot read aloud: \(reason)"
        case .restricted(let reason):
            return "reading aloud is not allowed: \(reason)"
        }
    }
}

/// Why libespeak-ng cannot speak.
public enum EspeakError: Error, Sendable, Equatable {
    /// The library could not be loaded (not installed, or `library` is not it).
    case libraryMissing(library: String?)
    /// Its voice data is not where it looks (`path`: the folder it was given, nil for the default).
    case dataMissing(path: String?)
    /// `espeak_Initialize` failed for another reason.
    case initializationFailed
    /// No voice for this language or name.
    case voiceNotFound(String)
    /// `espeak_Synth` returned an error code.
    case synthesisFailed(code: Int32)
}

extension EspeakError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .libraryMissing(let library):
            return library.map { "libespeak-ng could not be loaded from \($0)" } ?? "libespeak-ng is not installed"
        case .dataMissing(let path):
            return "the voice data of espeak-ng is missing" + (path.map { " (looked in \($0))" } ?? "")
        case .initializationFailed: return "espeak-ng could not start"
        case .voiceNotFound(let voice): return "espeak-ng has no voice for \(voice)"
        case .synthesisFailed(let code): return "espeak-ng failed to synthesise (error \(code))"
        }
    }
}

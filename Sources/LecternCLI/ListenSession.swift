import ArgumentParser
import AudioPlayback
import Shared

/// One run of `lectern listen` over a publication: media overlays or text-to-speech. Each kind
/// plays on the main actor (where the player lives) and ends with the command's exit status.
@MainActor
protocol ListenSession: AnyObject {
    init(command: ListenCommand, publication: Publication, output: AudioOutput)
    /// Plays to the end (or the first error, already said on standard error).
    func run() async -> ExitCode
}

extension ListenCommand {
    /// Plays `publication` with a session of kind `kind`, then exits with its status once what
    /// it printed is flushed.
    @MainActor
    func listen(with kind: (some ListenSession).Type, to publication: Publication, output: AudioOutput) async throws {
        let status = await kind.init(command: self, publication: publication, output: output).run()
        Output.flush()
        if status != ExitCode.success { throw status }
    }
}

import AudioPlayback
import FoundationEssentials
import ReaderUI
import Shared

/// The reader's audiobook playback: an ``AudiobookPlayer`` on libmpv, playing to the system's
/// sound device (or to none with `LECTERN_AUDIO_OUTPUT=null`), with decrypted audio fed from
/// memory.
@MainActor
final class UIAudiobookPlayback: AudiobookPlaybackController {
    private let player: AudiobookPlayer

    /// Makes the player of `publication`, for ``ReaderApp/Dependencies/makeAudiobookPlayback``.
    nonisolated static let factory: AudiobookPlaybackFactory = { publication throws(AudiobookPlaybackError) in
        let output = AudioOutput.resolved(.system, environment: ProcessInfo.processInfo.environment)
        do throws(AudioPlaybackError) {
            // The reader draws on the terminal: the audio libraries must not print there.
            return UIAudiobookPlayback(player: try AudiobookPlayer(publication: publication, output: output, quietStandardError: true))
        } catch {
            throw AudiobookPlaybackError(error.userMessage)
        }
    }

    private init(player: AudiobookPlayer) {
        self.player = player
        player.onChange = { [weak self] in self?.onChange?() }
    }

    var onChange: (@MainActor () -> Void)?
    var statusText: String { player.statusText }
    var trackIndex: Int { player.trackIndex }
    var isPlaying: Bool { player.isPlaying }
    var locator: Locator { player.locator }

    func togglePlayPause() { player.togglePlayPause() }
    func skip(by seconds: Double) { player.skip(by: seconds) }
    func go(toTrack index: Int, at seconds: Double) { player.go(toTrack: index, at: seconds) }
    @discardableResult func go(to locator: Locator) -> Bool { player.go(to: locator) }
    func nextTrack() { player.nextTrack() }
    func previousTrack() { player.previousTrack() }
    func nextChapter() { player.nextChapter() }
    func previousChapter() { player.previousChapter() }
    func changeSpeed(by step: Double) { player.changeSpeed(by: step) }
    func close() { player.close() }
}

import Shared

extension ReaderApp {
    /// Plays or pauses the track shown, through the ``AudiobookPlaybackController`` the
    /// executable provides.
    func togglePlayback(_ session: ReaderSession) {
        guard session.publication.isAudiobook else {
            message = "This is not an audiobook."
            return
        }
        if session.playback == nil, let make = dependencies.makeAudiobookPlayback {
            session.playback = make(session.publication)
            session.playback?.onChange = { [weak self] in self?.render() }
        }
        guard let playback = session.playback else {
            message = "Audio playback is not available in this version: the tracks and contents are shown."
            return
        }
        let track = session.state.chapter
        switch playback.state.status {
        case .playing where playback.state.track == track:
            playback.pause()
            message = "Paused."
        case .paused where playback.state.track == track:
            playback.resume()
            message = "Playing."
        default:
            message = "Loading track \(track + 1)…"
            Task { @MainActor [weak self] in
                do throws(AudiobookPlaybackError) {
                    try await playback.play(track: track, at: 0)
                    self?.message = "Playing track \(track + 1)."
                } catch {
                    self?.message = error.userMessage
                }
                self?.render()
            }
        }
    }
}

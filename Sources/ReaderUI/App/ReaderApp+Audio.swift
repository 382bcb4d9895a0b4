import FoundationEssentials
import Shared

extension ReaderApp {
    /// The audio keys: play/pause, seeks, chapters of the contents, speed. The page follows
    /// the track playing; the position is saved as the player's Locator.
    func handleAudio(_ action: ReaderAction, session: ReaderSession) {
        guard session.publication.isAudiobook else {
            message = "This is not an audiobook."
            return
        }
        guard let playback = playback(of: session) else { return }
        switch action {
        case .playPause:
            // The track shown, when the person paged to another one while paused.
            if !playback.isPlaying, playback.trackIndex != session.state.chapter {
                playback.go(toTrack: session.state.chapter, at: 0)
            }
            playback.togglePlayPause()
        case .seekForward: playback.skip(by: 15)
        case .seekBackward: playback.skip(by: -15)
        case .seekForwardLong: playback.skip(by: 60)
        case .seekBackwardLong: playback.skip(by: -60)
        case .nextAudioChapter: playback.nextChapter()
        case .previousAudioChapter: playback.previousChapter()
        case .nextChapter: playback.nextTrack()
        case .previousChapter: playback.previousTrack()
        case .faster: playback.changeSpeed(by: 0.25)
        case .slower: playback.changeSpeed(by: -0.25)
        default: return
        }
        savePosition(session)
    }

    /// The session's player, made on first use at the saved position; nil (with the reason
    /// in the status line) when there is no playback.
    func playback(of session: ReaderSession) -> (any AudiobookPlaybackController)? {
        if let playback = session.playback { return playback }
        guard let make = dependencies.makeAudiobookPlayback else {
            message = "Audio playback is not available in this version: the tracks and contents are shown."
            return nil
        }
        let playback: any AudiobookPlaybackController
        do {
            playback = try make(session.publication)
        } catch {
            message = error.userMessage
            return nil
        }
        if let saved = session.resumeLocator, session.chapterIndex(of: saved.href) == session.state.chapter {
            playback.go(to: saved)
        } else {
            playback.go(toTrack: session.state.chapter, at: 0)
        }
        playback.onChange = { [weak self, weak session] in
            guard let self, let session else { return }
            self.playbackChanged(session)
        }
        session.playback = playback
        return playback
    }

    /// Keeps the page on the track playing, saves the position now and then, redraws.
    private func playbackChanged(_ session: ReaderSession) {
        guard case .reader(let current) = page, current === session, let playback = session.playback else { return }
        let track = playback.trackIndex
        if track != session.state.chapter, session.loadingChapter != track {
            load(session, chapter: track, anchor: .start)
        }
        let now = Date()
        if now.timeIntervalSince(session.lastAudioSave) >= 5 {
            session.lastAudioSave = now
            savePosition(session)
        }
        render()
    }
}

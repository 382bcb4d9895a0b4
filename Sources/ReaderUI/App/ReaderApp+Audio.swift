import FoundationEssentials
import Shared

extension ReaderApp {
    /// The audio keys: play/pause, seeks, chapters of the contents, speed. The page follows
    /// the track playing; the position is saved as the player's Locator.
    func handleAudio(_ action: ReaderAction, book: BookController) {
        guard book.publication.isAudiobook else {
            message = "This is not an audiobook."
            return
        }
        guard let playback = playback(of: book) else { return }
        switch action {
        case .playPause:
            // The track shown, when the person paged to another one while paused.
            if !playback.isPlaying, playback.trackIndex != book.state.chapter {
                playback.go(toTrack: book.state.chapter, at: 0)
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
        savePosition(book)
    }

    /// The book's player, made on first use at the saved position; nil (with the reason
    /// in the status line) when there is no playback.
    func playback(of book: BookController) -> (any AudiobookPlaybackController)? {
        if let playback = book.playback { return playback }
        guard let make = dependencies.makeAudiobookPlayback else {
            message = "Audio playback is not available in this version: the tracks and contents are shown."
            return nil
        }
        let playback: any AudiobookPlaybackController
        do {
            playback = try make(book.publication)
        } catch {
            message = error.userMessage
            return nil
        }
        if let saved = book.resumeLocator, book.chapterIndex(of: saved.href) == book.state.chapter {
            playback.go(to: saved)
        } else {
            playback.go(toTrack: book.state.chapter, at: 0)
        }
        playback.onChange = { [weak self, weak book] in
            guard let self, let book else { return }
            self.playbackChanged(book)
        }
        book.playback = playback
        return playback
    }

    /// Keeps the page on the track playing, saves the position now and then, redraws.
    private func playbackChanged(_ book: BookController) {
        // Closing the book stops the player and forgets this callback: no check of the page here.
        guard let playback = book.playback else { return }
        let track = playback.trackIndex
        if track != book.state.chapter, book.loadingChapter != track {
            load(book, chapter: track, anchor: .start)
        }
        let now = Date()
        if now.timeIntervalSince(book.lastAudioSave) >= 5 {
            book.lastAudioSave = now
            savePosition(book)
        }
        render()
    }
}

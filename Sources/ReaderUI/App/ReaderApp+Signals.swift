import Bookshelf
import Terminal
#if canImport(Glibc)
import Glibc
#endif

/// Signals and suspension: the terminal closing (SIGHUP: a closed window, a killed tmux
/// session, a dropped SSH connection), SIGTERM, SIGINT and SIGQUIT end the program as `q`
/// does, the page saved and the terminal restored, with the status 128 + the signal; Ctrl-Z
/// (a key in raw mode) and SIGTSTP suspend it, the page saved, until the shell's `fg`.
///
/// Each signal reaches the main actor through ``SignalWatcher`` (a self-pipe read on a thread
/// of its own): nothing runs in the signal handler itself.
extension ReaderApp {
    /// Catches the signals that end or suspend the program, from now on. Called once the
    /// screen is up (after ncurses, whose own SIGINT and SIGTERM handlers would exit without
    /// saving anything).
    func watchSignals() {
        SignalWatcher.start(SignalWatcher.terminating + [SIGTSTP, SignalWatcher.resize]) { [weak self] signal in
            Task { @MainActor [weak self] in self?.received(signal) }
        }
    }

    /// Carries out what `signal` asks for, on the main actor between two keys.
    func received(_ signal: Int32) {
        if signal == SignalWatcher.resize {
            // ncurses' handler ran first: the next read gives KEY_RESIZE.
            drainInput(acknowledging: false)
        } else if signal == SIGTSTP {
            suspend()
        } else {
            Self.log.info("ending on signal \(signal)")
            quit(status: 128 + signal)
        }
    }

    /// Suspends the program as a shell's job control expects: the page saved, full-screen mode
    /// left, stopped; once continued (`fg`), the screen drawn again as it was.
    func suspend() {
        guard let screen else { return }
        if let book = currentBook, let error = savePositionNow(book) {
            message = "Could not save the reading position: \(error.userMessage)"
        }
        screen.suspend()
        SignalWatcher.stopProcess()
        screen.resume()
        picturesInvalidated()
        shelfCoversInvalidated()
        // The window may have been resized meanwhile.
        windowResized()
        render()
    }
}

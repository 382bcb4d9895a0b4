import Shared

extension ReaderApp {
    // MARK: - The jump list (`C-o` Backspace back, Tab forward)

    /// The page shown, as a place of the jump list (nil before the first layout).
    func currentPlace(_ session: ReaderSession) -> JumpList.Place? {
        guard session.state.layout != nil, let locator = session.state.currentLocator else { return nil }
        return JumpList.Place(locator: locator, title: session.chapterTitle)
    }

    /// Remembers the page shown before a jump takes the person elsewhere.
    func recordJump(_ session: ReaderSession) {
        guard let place = currentPlace(session) else { return }
        session.jumps.record(place)
    }

    /// Goes back (or forward) through the jump list, and says where to.
    func stepJump(_ session: ReaderSession, forward: Bool) {
        guard let current = currentPlace(session) else { return }
        guard let place = forward ? session.jumps.goForward(from: current) : session.jumps.goBack(from: current) else {
            message = forward ? "Nothing ahead: Tab goes forward again after C-o or Backspace went back."
                : "No earlier place: links, the contents, search, %, bookmarks, g and G are remembered."
            return
        }
        jump(session, to: place.locator)
        let title = place.title.isEmpty ? session.title : place.title
        let percent = place.locator.locations.totalProgression.map { " (\(Int(($0 * 100).rounded(.down)))%)" } ?? ""
        let back = session.jumps.back.count, ahead = session.jumps.forward.count
        message = (forward ? "Forward to " : "Back to ") + "“\(TerminalText.sanitized(title))”\(percent)"
            + " · \(back) back · \(ahead) ahead"
    }
}

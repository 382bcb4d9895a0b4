import Terminal
import TextLayout

/// The modes over the reader's page that take keys before its actions: each answers nil when
/// it is not active or lets the key through to the page.
extension ReaderScreen {
    /// The answer to a synced place offered: `y` goes there, `n` or Escape keeps the page; any
    /// other key drops the offer and does what it does.
    func syncOfferKey(_ key: Key) -> [ScreenEffect]? {
        guard let offer = book.syncOffer else { return nil }
        book.syncOffer = nil
        switch key {
        case .character("y"), .character("Y"): return [.reader(.goTo(offer.locator))]
        case .character("n"), .character("N"), .escape: return []
        default: return nil
        }
    }

    /// The keys of hint mode and of the external-link question; nil when neither is active.
    func hintKey(_ key: Key) -> [ScreenEffect]? {
        if let url = book.pendingExternalLink {
            book.pendingExternalLink = nil
            if key == .character("y") || key == .character("Y") || key == .enter {
                return [.reader(.openExternally(url))]
            }
            return [.message("Not opened.")]
        }
        guard var hints = book.hints else { return nil }
        book.hints = nil
        guard case .character(let character) = key, character.isLetter else {
            return key != .escape ? [.message("Hints cancelled.")] : []
        }
        switch hints.type(character) {
        case .chosen(let target):
            return [.reader(.follow(target, among: hints.targets))]
        case .pending:
            book.hints = hints
            return []
        case .noMatch:
            return [.message("No label “\(character)”: hints cancelled.")]
        }
    }

    /// The keys of a selection (`v`): moving its ends, then copying, highlighting, looking up.
    func selectionKey(_ key: Key) -> [ScreenEffect] {
        guard var selection = book.selection else { return [] }
        if let offer = book.partialCopyOffer {
            // The answer to "copy what fits?": y copies it; another key does what it does.
            book.partialCopyOffer = nil
            if key == .character("y") { return [.reader(.copy(offer))] }
        }
        let movement: SelectionState.Movement?
        switch key {
        case .character("v") where !selection.isAnchored, .character(" ") where !selection.isAnchored:
            selection.anchorHere()
            book.selection = selection
            return []
        case .character("o"):
            selection.swapEnds()
            book.selection = selection
            book.state.reveal(offset: selection.cursor)
            return []
        case .character("l"), .right: movement = .characterForward
        case .character("h"), .left: movement = .characterBackward
        case .character("w"), .character("e"): movement = .wordForward
        case .character("b"): movement = .wordBackward
        case .character("j"), .down: movement = .lineDown
        case .character("k"), .up: movement = .lineUp
        case .character("}"), .character(")"): movement = .paragraphForward
        case .character("{"), .character("("): movement = .paragraphBackward
        case .character("y") where selection.isAnchored, .enter where selection.isAnchored:
            return [.reader(.copy(selection.text))]
        case .escape, .character("v"), .character("q"), .control("c"):
            book.selection = nil
            return []
        case .character("K"):
            return [.reader(.lookUp)]
        case .character("H") where selection.isAnchored, .character("n") where selection.isAnchored:
            // A highlight of the selection; n then writes its note.
            return [.reader(.highlightRange(selection.range, thenNote: key == .character("n")))]
        default:
            // Read aloud from the selection's start (#33).
            if keyMap.action(for: key) == .readAloud, selection.isAnchored { return [.reader(.readAloudFromSelection)] }
            movement = nil
        }
        guard let movement else { return [] }
        selection.move(movement)
        book.selection = selection
        book.state.reveal(offset: selection.cursor)
        return []
    }

    /// The read-aloud keys: `r` starts, pauses and resumes; while reading, the speed, the
    /// phrase and paragraph steps, leaving a table, and Escape to stop. Nil when the key is
    /// not one (the page handles it).
    func readAloudKey(_ key: Key) -> [ScreenEffect]? {
        let action = keyMap.action(for: key)
        if action == .readAloud {
            book.state.clearCount()
            return [.reader(.readAloud(.toggle))]
        }
        guard ReadAloudSession.of(book) != nil else { return nil }
        let request: ReadAloudKey
        switch action {
        case .faster: request = .faster
        case .slower: request = .slower
        case .seekForward: request = .step(1)
        case .seekBackward: request = .step(-1)
        case .nextParagraph, .previousParagraph: request = .paragraph(forward: action == .nextParagraph)
        case .leaveStructure: request = .leaveStructure
        default:
            guard key == .escape else { return nil }
            request = .stop
        }
        return [.reader(.readAloud(request))]
    }
}

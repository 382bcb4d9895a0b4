import Bookshelf
import FoundationEssentials
import Shared
import Terminal
import TextLayout

extension ReaderApp {
    // MARK: - Selection

    /// Starts a selection: the search match shown when there is one on the page, else the
    /// first character of the page; `cursor` places a cursor there to move before anchoring.
    func startSelection(_ session: ReaderSession, cursor: Bool = false) {
        guard let layout = session.state.layout, layout.document.length > 0 else {
            message = "Nothing to select here."
            return
        }
        let first = session.state.visibleLines.first { !layout.lines[$0].offsets.isEmpty }
        let offset = first.map { layout.lines[$0].offsets.lowerBound } ?? session.state.topOffset
        if !cursor, let match = session.search?.current, match.chapter == session.state.chapter,
           let line = layout.lineIndex(containing: match.range.lowerBound), session.state.visibleLines.contains(line) {
            session.selection = SelectionState(layout: layout, range: match.range)
        } else {
            session.selection = cursor ? .cursor(layout: layout, at: offset) : SelectionState(layout: layout, at: offset)
        }
        session.selectionNumber += 1
        refreshCopyPermission(session)
    }

    /// Asks the protection, off the main actor, whether copying is possible at all now: the
    /// Copy action is greyed when not (asked again each time the selection bar is shown).
    func refreshCopyPermission(_ session: ReaderSession) {
        let rights = session.publication.rights
        let rightsLeft = session.opened.rightsLeft
        session.copyPermission = nil
        Task { @MainActor [weak self] in
            let (allowed, left) = await Blocking.run { (rights.canCopy, rightsLeft?().characters) }
            session.copyPermission = (allowed, left)
            self?.render()
        }
    }

    func handleSelection(_ key: Key, session: ReaderSession) {
        guard var selection = session.selection else { return }
        if let offer = session.partialCopyOffer {
            // The answer to "copy what fits?": y copies it; another key does what it does.
            session.partialCopyOffer = nil
            if key == .character("y") {
                copy(offer, session: session)
                return
            }
        }
        let movement: SelectionState.Movement?
        switch key {
        case .character("v") where !selection.isAnchored, .character(" ") where !selection.isAnchored:
            selection.anchorHere()
            session.selection = selection
            return
        case .character("o"):
            selection.swapEnds()
            session.selection = selection
            session.state.reveal(offset: selection.cursor)
            return
        case .character("l"), .right: movement = .characterForward
        case .character("h"), .left: movement = .characterBackward
        case .character("w"), .character("e"): movement = .wordForward
        case .character("b"): movement = .wordBackward
        case .character("j"), .down: movement = .lineDown
        case .character("k"), .up: movement = .lineUp
        case .character("}"), .character(")"): movement = .paragraphForward
        case .character("{"), .character("("): movement = .paragraphBackward
        case .character("y") where selection.isAnchored, .enter where selection.isAnchored:
            copy(selection.text, session: session)
            return
        case .escape, .character("v"), .character("q"), .control("c"):
            session.selection = nil
            return
        case .character("K"):
            lookUpWord(session)
            return
        default:
            movement = nil
        }
        guard let movement else { return }
        selection.move(movement)
        session.selection = selection
        session.state.reveal(offset: selection.cursor)
    }

    /// Copies `text` if the publication's rights allow it: `canCopy(text)` first, then
    /// `copy(text)` consumes; on success the text goes to the clipboard (OSC 52, and
    /// `wl-copy`/`xclip` when present) and the status line says what was copied and what is left.
    func copy(_ text: String, session: ReaderSession) {
        let count = text.count
        guard count > 0 else {
            message = "Nothing selected."
            return
        }
        let rights = session.publication.rights
        let rightsLeft = session.opened.rightsLeft
        let number = session.selectionNumber
        Task { @MainActor [weak self] in
            enum Outcome: Sendable { case copied(left: Int?), refused(left: Int?), notAllowed }
            let outcome = await Blocking.run { () -> Outcome in
                guard rights.canCopy else { return .notAllowed }
                guard rights.canCopy(text: text), rights.copy(text: text) else { return .refused(left: rightsLeft?().characters) }
                return .copied(left: rightsLeft?().characters)
            }
            guard let self, case .reader(let current) = self.page, current === session else { return }
            switch outcome {
            case .notAllowed:
                self.message = "Copy refused: this publication's rights do not allow copying"
                    + (session.copyPermission?.left == 0 ? " (no characters left)." : ".")
            case .refused(let left):
                self.message = "Copy refused: the selection has \(Self.characters(count)), "
                    + (left.map { "only \($0) left." } ?? "more than the rights allow.")
                // What fits can still go, if the person wants it.
                if let left, left > 0, left < count, session.selectionNumber == number {
                    session.partialCopyOffer = String(text.prefix(left))
                    self.message! += " y copies the first \(Self.characters(left)) · other keys go on selecting"
                }
            case .copied(let left):
                // Unless a new selection was started meanwhile.
                if session.selectionNumber == number { session.selection = nil }
                self.screen.sendToClipboard(text)
                let leftText = left.map { ", \(Self.characters($0)) left" } ?? ""
                self.message = "Copied \(Self.characters(count))\(leftText)."
                Task { _ = await Blocking.runInBackground { DesktopClipboard.copy(text) } }
            }
            self.render()
        }
    }

    static func characters(_ count: Int) -> String {
        count == 1 ? "1 character" : "\(count) characters"
    }
}

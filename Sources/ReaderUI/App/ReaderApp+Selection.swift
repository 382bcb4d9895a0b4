import Bookshelf
import FoundationEssentials
import Shared
import Terminal
import TextLayout

extension ReaderApp {
    // MARK: - Selection

    /// Starts a selection: the search match shown when there is one on the page, else the
    /// first character of the page; `cursor` places a cursor there to move before anchoring.
    func startSelection(_ book: BookController, cursor: Bool = false) {
        guard let layout = book.state.layout, layout.document.length > 0 else {
            message = "Nothing to select here."
            return
        }
        let first = book.state.visibleLines.first { !layout.lines[$0].offsets.isEmpty }
        let offset = first.map { layout.lines[$0].offsets.lowerBound } ?? book.state.topOffset
        if !cursor, let match = book.search?.current, match.chapter == book.state.chapter,
           let line = layout.lineIndex(containing: match.range.lowerBound), book.state.visibleLines.contains(line) {
            book.selection = SelectionState(layout: layout, range: match.range)
        } else {
            book.selection = cursor ? .cursor(layout: layout, at: offset) : SelectionState(layout: layout, at: offset)
        }
        book.selectionNumber += 1
        refreshCopyPermission(book)
    }

    /// Asks the protection, off the main actor, whether copying is possible at all now: the
    /// Copy action is greyed when not (asked again each time the selection bar is shown).
    func refreshCopyPermission(_ book: BookController) {
        let rights = book.publication.rights
        book.copyPermission = nil
        book.tasks.start(.copyPermission, computing: {
            let allowance = await rights.allowance
            return (allowance.copy.allows(1), allowance.copy.amount)
        }, then: { [weak self] permission in
            book.copyPermission = permission
            self?.render()
        })
    }

    /// Copies `text` if the publication's rights allow it: `canCopy(text)` first, then
    /// `copy(text)` consumes, once whichever paths take the text; on success the text goes to
    /// the terminal (OSC 52) and the ``Clipboard`` paths (tmux's paste buffer inside tmux, a
    /// desktop tool), and the status line says what was copied, where, and what is left.
    func copy(_ text: String, book: BookController) {
        let count = text.count
        guard count > 0 else {
            message = "Nothing selected."
            return
        }
        let rights = book.publication.rights
        let number = book.selectionNumber
        enum Outcome: Sendable { case copied(left: Int?, ClipboardDelivery), refused(left: Int?), notAllowed, uncounted(String) }
        book.tasks.start(nil, computing: { () -> Outcome in
            // Decided, recorded and counted at once; the answer says what is left.
            let decision = await rights.copy(text: text)
            let left = decision.allowance
            guard decision.isGranted else {
                // Refused because the allowance could not be read, not because it is used up.
                if let problem = left.problem { return .uncounted(problem) }
                return left.copy.allows(1) ? .refused(left: left.copy.amount) : .notAllowed
            }
            return .copied(left: left.copy.amount, await Blocking.run { Clipboard.copy(text) })
        }, then: { [weak self] outcome in
            guard let self else { return }
            switch outcome {
            case .uncounted(let problem):
                self.message = "Copy refused: the copy allowance cannot be counted (\(TerminalText.singleLine(problem)))."
            case .notAllowed:
                self.message = "Copy refused: this publication's rights do not allow copying"
                    + (book.copyPermission?.left == 0 ? " (no characters left)." : ".")
            case .refused(let left):
                self.message = "Copy refused: the selection has \(Self.characters(count)), "
                    + (left.map { "only \($0) left." } ?? "more than the rights allow.")
                // What fits can still go, if the person wants it.
                if let left, left > 0, left < count, book.selectionNumber == number {
                    book.partialCopyOffer = String(text.prefix(left))
                    self.message! += " y copies the first \(Self.characters(left)) · other keys go on selecting"
                }
            case .copied(let left, let delivery):
                // Unless a new selection was started meanwhile.
                if book.selectionNumber == number { book.selection = nil }
                self.screen.sendToClipboard(text)
                let leftText = left.map { ", \(Self.characters($0)) left" } ?? ""
                self.message = "Copied \(Self.characters(count))\(delivery.destination)\(leftText)\(delivery.refusal)."
            }
            self.render()
        })
    }

    static func characters(_ count: Int) -> String {
        count == 1 ? "1 character" : "\(count) characters"
    }
}

import Bookshelf
import FoundationEssentials
import Shared
import Terminal
import TextLayout

extension ReaderApp {
    // MARK: - Hint mode (`f`) and following links

    /// Labels every link and note reference of the page (hint mode).
    func startHints(_ book: BookController) {
        guard let layout = book.state.layout else { return }
        let targets = (PageTarget.collect(in: layout, lines: book.state.visibleLines) + highlightTargets(book))
            .sorted { ($0.line, $0.column) < ($1.line, $1.column) }
        guard !targets.isEmpty else {
            message = "No note reference or link on this page."
            return
        }
        book.hints = HintMode(targets: targets)
    }

    /// Follows `target`: a note opens in a popup (which steps through the page's other notes),
    /// an internal link is jumped to (remembered in the jump list), an external link is
    /// opened after the person agrees.
    func follow(_ target: PageTarget, among targets: [PageTarget], book: BookController) {
        if let id = target.annotationID {
            openAnnotation(id: id, book: book)
        } else if target.isNote {
            let notes = targets.filter(\.isNote)
            openNote(book, notes: notes, index: notes.firstIndex(of: target) ?? 0)
        } else if target.target.isExternal {
            let url = target.target.href
            guard Self.opensExternally(url) else {
                message = "Cannot open this kind of link: \(TerminalText.sanitized(url))"
                return
            }
            book.pendingExternalLink = url
        } else {
            recordJump(book)
            jump(book, to: target.target.href)
        }
    }

    /// Whether `url` may be handed to the desktop: web pages and mail only (never `file:`
    /// or a scheme that would run something).
    static func opensExternally(_ url: String) -> Bool {
        let lowered = url.lowercased()
        return ["http://", "https://", "mailto:"].contains { lowered.hasPrefix($0) }
    }

    /// The question the status line asks before an external link is opened.
    static func externalLinkQuestion(_ url: String) -> String {
        "Open \(TerminalText.sanitized(url)) with xdg-open? y opens · any other key cancels"
    }

    /// Hands `url` to `xdg-open` (found in `PATH`) off the main actor.
    func openExternally(_ url: String, book: BookController) {
        let shown = TerminalText.sanitized(url)
        message = "Opening \(shown)…"
        // Unkeyed: the link still opens if the book closes meanwhile; only the message is dropped.
        book.tasks.start(nil, computing: {
            await Blocking.run { ExternalCommand.run(["xdg-open", url]) }
        }, then: { [weak self] status in
            guard let self else { return }
            switch status {
            case 0?: self.message = "Opened \(shown) with xdg-open."
            case nil: self.message = "Cannot open \(shown): xdg-open is not installed."
            case let code?: self.message = "xdg-open could not open \(shown) (exit status \(code))."
            }
            self.render()
        })
    }

    // MARK: - Notes

    /// Opens note `index` of `notes` (the page's note references) in a popup, from which
    /// `n` and `p` step to the next and previous note.
    func openNote(_ book: BookController, notes: [PageTarget], index: Int) {
        guard notes.indices.contains(index), let document = book.document else { return }
        let target = notes[index].target
        let loader = book.loader
        let width = max(10, min(70, screen.size.columns - 6))
        book.tasks.start(.note, computing: {
            await Blocking.run { () -> LaidOutDocument? in
                guard let note = NoteResolver(loader: loader).note(for: target, in: document) else { return nil }
                return LayoutEngine.layout(note, options: LayoutOptions(width: width, paragraphIndent: 0))
            }
        }, then: { [weak self] note in
            guard let self else { return }
            if let note {
                var title = "Note"
                if notes.count > 1 { title = "Note \(index + 1)/\(notes.count) · n next · p previous" }
                var state = NoteState(title: title, layout: note)
                state.siblings = notes
                state.index = index
                self.overlays.append(NoteScreen(note: state))
            } else {
                self.message = "The note \(TerminalText.sanitized(target.href)) was not found."
            }
            self.render()
        })
    }
}

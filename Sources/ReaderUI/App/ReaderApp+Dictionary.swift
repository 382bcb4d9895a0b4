import Bookshelf
import Shared
import TextLayout

extension ReaderApp {
    // MARK: - Dictionary

    /// Looks up in a local dictionary (``DictionaryLookup``) the word the selection starts
    /// with — the word under the cursor of a selection just started — or, when nothing is
    /// selected, the first word of the page; the definition opens in a popup.
    func lookUpWord(_ book: BookController) {
        guard let layout = book.state.layout, layout.document.length > 0 else {
            message = "No word to look up here."
            return
        }
        let length = layout.document.length
        let range: Range<Int>
        if let selection = book.selection {
            // A selection of one character is a cursor: the word from there.
            range = selection.range.count > 1 ? selection.range : selection.cursor..<min(length, selection.cursor + 64)
        } else {
            let first = book.state.visibleLines.first { !layout.lines[$0].offsets.isEmpty }
            let start = first.map { layout.lines[$0].offsets.lowerBound } ?? book.state.topOffset
            range = start..<min(length, start + 64)
        }
        guard let word = DictionaryLookup.word(in: layout.document.text(in: range)) else {
            message = "No word to look up here."
            return
        }
        let width = max(10, min(70, screen.size.columns - 6))
        message = "Looking up “\(word)”…"
        book.tasks.start(.lookUp) { [weak self] in
            let outcome = await Blocking.run { DictionaryLookup.lookUp(word) }
            guard let self, !Task.isCancelled else { return }
            switch outcome {
            case .definition(let text, let program):
                self.message = nil
                let layout = await Blocking.run { LayoutEngine.layout(Self.definitionDocument(text), options: LayoutOptions(width: width, paragraphIndent: 0)) }
                guard !Task.isCancelled else { return }
                self.overlays.append(NoteScreen(note: NoteState(title: "\(word) (\(program))", layout: layout)))
            case .notFound(let program):
                self.message = "\(program) has no entry for “\(word)”."
            case .noDictionary:
                self.message = "No dictionary installed: install sdcv (StarDict) or dict (dictd) to look words up."
            }
            self.render()
        }
    }

    /// A dictionary's plain-text answer as a document: paragraphs at blank lines, its line
    /// breaks kept.
    nonisolated static func definitionDocument(_ text: String) -> TextDocument {
        var html = "<html><body>"
        for paragraph in text.split(separator: "\n\n", omittingEmptySubsequences: true) {
            let lines = paragraph.split(separator: "\n", omittingEmptySubsequences: false).map { SyntheticDocuments.escape(String($0)) }
            html += "<p>" + lines.joined(separator: "<br/>") + "</p>"
        }
        html += "</body></html>"
        return (try? ContentDocumentParser.parse(html: Array(html.utf8), href: "dictionary.xhtml"))
            ?? (try! ContentDocumentParser.parse(html: Array("<p>—</p>".utf8), href: "dictionary.xhtml"))
    }
}

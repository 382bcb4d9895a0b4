import Annotations
import Bookshelf
import FoundationEssentials
import Shared
import Terminal

extension ReaderApp {
    // MARK: - The popups of highlights and notes

    /// Opens `annotation`'s popup (colour, style, note, delete), or its note editor.
    func openAnnotation(_ annotation: Annotation, book: BookController, thenNote: Bool = false) {
        if thenNote {
            overlays.append(NoteEditorScreen(state: NoteEditorState(annotationID: annotation.id, note: annotation.note)))
        } else {
            overlays.append(AnnotationDetailScreen(state: AnnotationDetailState(annotation: annotation)))
        }
    }

    /// Opens the highlight `id` of the book shown (a hint label's).
    func openAnnotation(id: String, book: BookController) {
        guard let annotation = book.highlights.annotation(id: id) else { return }
        openAnnotation(annotation, book: book)
    }

    /// The list of the book's annotations (`A`).
    func showAnnotationList(_ book: BookController) {
        let titles = book.chapterTitles
        let state = AnnotationListState(
            annotations: book.highlights.annotations,
            order: { (book.chapterIndex(of: $0.target.href) ?? Int.max, $0.target.textRange?.lowerBound ?? 0) },
            chapterTitle: { titles[Href.removingFragment($0.target.href)] ?? $0.target.href },
            visibleRows: PopupViews.listRows(windowRows: screen.size.rows), orphans: book.highlights.orphans)
        overlays.append(AnnotationListScreen(state: state))
        if !book.highlights.isLoaded, book.entry != nil, dependencies.annotations != nil {
            message = "The highlights are still being read."
        }
    }

    /// Carries out what a popup of highlights and notes asked of the open book.
    func perform(_ request: AnnotationRequest, book: BookController) {
        switch request {
        case .store(let annotation): storeAnnotation(annotation, book: book)
        case .remove(let annotation): removeAnnotation(annotation, book: book)
        case .jump(let annotation): jump(book, toAnnotation: annotation)
        case .open(let annotation): openAnnotation(annotation, book: book)
        case .noteClosed(let id, .cancel):
            message = "Note not changed."
            // A page note never saved is forgotten.
            if let annotation = book.highlights.annotation(id: id), annotation.target.textRange == nil,
               annotation.target.quote == nil, annotation.note == nil {
                book.highlights.remove(id: annotation.id, chapterOf: { book.chapterIndex(of: $0.target.href) })
            }
        case .noteClosed(let id, .save(let text)):
            guard var annotation = book.highlights.annotation(id: id) else { return }
            let note: String? = text.isEmpty ? nil : text
            if note == nil, annotation.target.textRange == nil, annotation.target.quote == nil {
                // A page note without words is no note: deleted (or never kept).
                removeAnnotation(annotation, book: book)
                message = "No note kept for this page."
                return
            }
            if note != annotation.note {
                annotation.note = note
                annotation.modified = Date()
                storeAnnotation(annotation, book: book)
            }
            message = note == nil ? "Highlight kept without a note." : "Note saved."
        case .noteClosed(_, .editing):
            break
        }
    }

    /// Goes to `annotation` (remembered on the jump list): its range in its chapter, else
    /// its progression.
    func jump(_ book: BookController, toAnnotation annotation: Annotation) {
        guard let chapter = book.chapterIndex(of: annotation.target.href) else {
            message = "This highlight's chapter is not in the reading order: \(TerminalText.sanitized(annotation.target.href))"
            return
        }
        recordJump(book)
        let anchor: ReaderState.Anchor
        // An orphan's range no longer holds its quote: its last known place is its progression.
        let orphaned = book.highlights.orphans.contains(annotation.id)
        if let range = annotation.target.textRange, !orphaned || annotation.target.progression == nil {
            anchor = .offset(range.lowerBound)
        } else if let progression = annotation.target.progression {
            anchor = .progression(progression)
        } else {
            anchor = .start
        }
        if chapter == book.state.chapter, book.loadingChapter == nil, case .offset(let offset) = anchor {
            book.reveal(offset: offset)
            savePosition(book)
        } else {
            load(book, chapter: chapter, anchor: anchor)
        }
        if orphaned { message = "This highlight's quote was not found in the book: shown at its last known place." }
    }
}

extension ReaderApp {
    // MARK: - Notes in the library search (`F`)

    /// The notes of the library's highlights that match `text` (the library search's rules);
    /// none when they cannot be read (the passages are still listed).
    func notesMatching(_ text: String, library: Library) async -> [AnnotationNoteHit] {
        let store = library.store
        return (try? await Blocking.attempt { () throws(LibraryError) -> [AnnotationNoteHit] in
            try store.annotationNotes(matching: text, limit: 50)
        }) ?? []
    }

    /// Where a note found by the library search is: its chapter, at its progression.
    static func locator(of note: AnnotationNoteHit) -> Locator {
        Locator(href: note.href, mediaType: nil, locations: Locator.Locations(progression: note.progression))
    }
}

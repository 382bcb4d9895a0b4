import Annotations
import Bookshelf
import FoundationEssentials
import Shared
import TextLayout

/// The annotations of one book in the library, as the interface reads and writes them.
///
/// The composition root makes one per book and binds the book's quote sealing into it (LCP,
/// ZIP- and PDF-password books: quotes are sealed before they reach the database), so the
/// interface never holds a key and cannot write a protected quote in clear.
public struct BookAnnotationStore: Sendable {
    /// Every live annotation of the book, quotes opened.
    public var list: @Sendable () async throws(LibraryError) -> [Annotation]
    /// Adds or replaces one (by its id).
    public var save: @Sendable (Annotation) async throws(LibraryError) -> Void
    /// Deletes one (a tombstone is kept for syncs).
    public var delete: @Sendable (_ id: String) async throws(LibraryError) -> Void

    public init(list: @escaping @Sendable () async throws(LibraryError) -> [Annotation],
                save: @escaping @Sendable (Annotation) async throws(LibraryError) -> Void,
                delete: @escaping @Sendable (_ id: String) async throws(LibraryError) -> Void) {
        self.list = list
        self.save = save
        self.delete = delete
    }
}

/// Makes the annotation store of the library publication `publicationID`, opened as
/// `publication`; without one (the bookshelf's view of the whole library) it only reads, and
/// the quotes sealed with a book's own key (LCP) stay sealed.
public typealias AnnotationStoreFactory = @Sendable (_ publicationID: Int64, _ publication: Publication?) -> BookAnnotationStore

extension ReaderApp {
    // MARK: - Reading and writing the book's annotations

    /// Reads the book's annotations from the library (at its first page): they are then
    /// drawn on every page they cross.
    func loadAnnotations(_ book: BookController) {
        guard let factory = dependencies.annotations, let id = book.entry?.id else { return }
        let store = factory(id, book.publication)
        book.tasks.start(nil, computing: { () -> Result<[Annotation], LibraryError> in
            do throws(LibraryError) { return .success(try await store.list()) } catch { return .failure(error) }
        }, then: { [weak self, weak book] result in
            guard let self, let book else { return }
            switch result {
            case .success(let list):
                // Highlights made while the library was read are kept.
                let made = book.highlights.annotations.filter { local in !list.contains { $0.id == local.id } }
                book.highlights.replaceAll(list + made, chapterOf: { book.chapterIndex(of: $0.target.href) })
                book.highlights.isLoaded = true
                self.reanchorHighlights(book)
                self.refreshShownBookmarks(book)
            case .failure(let error):
                self.message = "Could not read the highlights: \(error.userMessage)"
            }
            self.render()
        })
    }

    /// Applies `annotation` (new or changed) on screen at once, then stores it.
    func storeAnnotation(_ annotation: Annotation, book: BookController) {
        book.highlights.upsert(annotation, chapterOf: { book.chapterIndex(of: $0.target.href) })
        book.highlights.color = annotation.color
        book.highlights.style = annotation.style
        writeAnnotation(book, failure: "Could not save the highlight") { (store: BookAnnotationStore) async throws(LibraryError) in
            try await store.save(annotation)
        }
    }

    /// Removes `annotation` from the page at once, then from the library.
    func removeAnnotation(_ annotation: Annotation, book: BookController) {
        book.highlights.remove(id: annotation.id, chapterOf: { book.chapterIndex(of: $0.target.href) })
        message = annotation.note == nil ? "Highlight deleted." : "Highlight and note deleted."
        writeAnnotation(book, failure: "Could not delete the highlight") { (store: BookAnnotationStore) async throws(LibraryError) in
            try await store.delete(annotation.id)
        }
    }

    /// Runs `write` on the book's store, after the writes queued before it
    /// (``AnnotationWrites``); the entry is looked up first when the book was just added
    /// (`lectern open` of a new file). It completes even if the book closes, and quitting
    /// waits for it.
    func writeAnnotation(_ book: BookController, failure: String,
                                 _ write: @escaping @Sendable (BookAnnotationStore) async throws(LibraryError) -> Void) {
        guard let factory = dependencies.annotations, let library = dependencies.library else {
            message = "Highlights are kept in the library, which could not be opened: this one is lost when the book closes."
            return
        }
        let known = book.entry, publication = book.publication
        let written = annotationWrites.enqueue { [weak self] () async -> String? in
            do throws(LibraryError) {
                var entry = known
                if entry == nil, let (added, identity) = await self?.entryForWriting(book) {
                    entry = added
                    if entry == nil, let identity { entry = try await library.entry(identity: identity) }
                }
                guard let id = entry?.id else { return "\(failure): the book is not in the library yet." }
                try await write(factory(id, publication))
                return nil
            } catch {
                return "\(failure): \(error.userMessage)"
            }
        }
        Task { @MainActor [weak self] in
            guard let problem = await written.value, let self else { return }
            self.message = problem
            self.render()
        }
    }

    /// The library entry a write needs, once known: the opening is still looking the book up
    /// when a key came as soon as the first page showed, and a book opened for the first time
    /// is being added (at its first page). Its identity, to look the entry up by when the book
    /// closed meanwhile.
    func entryForWriting(_ book: BookController) async -> (LibraryEntry?, String?) {
        await book.identityLookup?.value
        if book.entry == nil {
            ensureEntry(book)
            await book.entryAdding?.value
        }
        return (book.entry, book.identity)
    }

    // MARK: - Making a highlight

    /// Highlights `range` of the chapter shown in the last colour and style used, and opens
    /// it (its colour, style and note); a range already highlighted is opened as it is.
    func highlight(_ range: Range<Int>, book: BookController, thenNote: Bool = false) {
        guard let document = book.document ?? book.state.layout?.document else { return }
        let chapter = book.state.chapter
        if let existing = book.highlights.inChapter(chapter).first(where: { $0.target.textRange == range }) {
            openAnnotation(existing, book: book, thenNote: thenNote)
            return
        }
        guard var annotation = HighlightSet.make(range: range, document: document, wholeLength: book.state.knownLength(ofChapter: chapter),
                                                 href: annotationHref(book, chapter: chapter),
                                                 type: book.publication.readingOrder.indices.contains(chapter)
                                                     ? book.publication.readingOrder[chapter].mediaType?.string : nil,
                                                 page: book.source.isPaged ? chapter + 1 : nil,
                                                 totalProgression: bookProgression(book, chapter: chapter, offset: range.lowerBound),
                                                 headings: [], color: book.highlights.color, style: book.highlights.style) else {
            message = "Nothing to highlight here."
            return
        }
        let section = book.sectionTitle(chapter: chapter, offset: range.lowerBound) ?? book.chapterTitle
        annotation.target.headings = section.isEmpty ? [] : [section]
        book.selection = nil
        storeAnnotation(annotation, book: book)
        openAnnotation(annotation, book: book, thenNote: thenNote)
        if !thenNote { message = "Highlighted." }
    }

    /// The href a highlight of `chapter` is kept under: the reading order's, without a
    /// fragment; a PDF page's with its `#page=N`.
    func annotationHref(_ book: BookController, chapter: Int) -> String {
        let href = book.source.href(chapter)
        return book.source.isPaged ? href : Href.removingFragment(href)
    }

    /// How far into the book `offset` of `chapter` is, once the chapters are counted.
    func bookProgression(_ book: BookController, chapter: Int, offset: Int) -> Double? {
        guard let lengths = book.state.chapterLengths, lengths.indices.contains(chapter) else { return nil }
        let total = lengths.reduce(0, +)
        guard total > 0 else { return nil }
        return min(1, Double(lengths[..<chapter].reduce(0, +) + offset) / Double(total))
    }

    // MARK: - The reader's keys

    /// `H` on the page: highlights the search match shown, else opens the page's
    /// `number`-th highlight.
    func highlightKey(_ book: BookController, number: Int) {
        if showsPicture(book) || book.state.layout?.document.length == 0 {
            pageNote(book)
            return
        }
        guard let layout = book.state.layout else { return }
        if let match = book.search?.current, match.chapter == book.state.chapter,
           let line = layout.lineIndex(containing: match.range.lowerBound), book.state.visibleLines.contains(line) {
            highlight(match.range, book: book)
            return
        }
        let onPage = highlightsOnPage(book)
        guard !onPage.isEmpty else {
            message = "No highlight on this page: select text with v (or search), then H."
            return
        }
        openAnnotation(onPage[min(number, onPage.count) - 1], book: book)
    }

    /// `H` on a page shown as a picture (a comic, a PDF page): its note, a page-level
    /// annotation, opened in the editor; kept once a note is saved.
    func pageNote(_ book: BookController) {
        let chapter = book.state.chapter, href = annotationHref(book, chapter: chapter)
        if let existing = book.highlights.annotations.first(where: { $0.target.textRange == nil && $0.target.page == chapter + 1
                                                                    && book.chapterIndex(of: $0.target.href) == chapter }) {
            openAnnotation(existing, book: book, thenNote: true)
            return
        }
        let title = book.chapterTitle
        let annotation = Annotation(target: AnnotationTarget(href: href, progression: 0, page: chapter + 1,
                                                             headings: title.isEmpty ? [] : [title]))
        // Only in memory until its note is saved (the editor's Escape forgets it).
        book.highlights.upsert(annotation, chapterOf: { book.chapterIndex(of: $0.target.href) })
        openAnnotation(annotation, book: book, thenNote: true)
    }

    /// Hint mode's targets for the highlights of the page: each labelled at its first cell shown.
    func highlightTargets(_ book: BookController) -> [PageTarget] {
        guard let layout = book.state.layout else { return [] }
        let visible = book.state.visibleLines
        return highlightsOnPage(book).enumerated().compactMap { index, annotation in
            guard let range = annotation.target.textRange,
                  let first = layout.highlights(for: range).first(where: { visible.contains($0.line) }) else { return nil }
            // Negative link indices: never one of the document's links.
            return PageTarget(linkIndex: -1 - index, target: LinkTarget(href: "", isExternal: false, isNoteReference: false),
                              isNote: false, line: first.line, column: first.columns.lowerBound, annotationID: annotation.id)
        }
    }

    /// The highlights crossing the lines shown, in reading order.
    func highlightsOnPage(_ book: BookController) -> [Annotation] {
        guard let layout = book.state.layout, let first = book.state.visibleLines.first,
              let last = book.state.visibleLines.last else { return [] }
        let offsets = layout.lines[first].offsets.lowerBound..<max(layout.lines[first].offsets.lowerBound, layout.lines[last].offsets.upperBound)
        return book.highlights.crossing(offsets, inChapter: book.state.chapter)
    }
}

import Annotations
import Bookshelf
import Shared
import Terminal

extension ReaderApp {
    // MARK: - The bookshelf's view of every annotation of the library (`A`)

    /// `A` on the bookshelf: every highlight and note of the library in one list. Reads every book's annotations (off the main actor) and lists them by book, in reading
    /// order. Books are not opened: an LCP book's quotes stay sealed and are listed as such.
    func showLibraryAnnotations() {
        guard let library = dependencies.library, let factory = dependencies.annotations else {
            shelf.message = "Highlights are kept in the library, which could not be opened."
            return
        }
        shelf.message = "Reading the library's highlights…"
        Task { @MainActor [weak self] in
            var found: [(entry: LibraryEntry, annotation: Annotation)] = []
            var failure: LibraryError?
            do throws(LibraryError) {
                for entry in try await library.entries() {
                    for annotation in try await factory(entry.id, nil).list() { found.append((entry, annotation)) }
                }
            } catch {
                failure = error
            }
            guard let self, case .shelf = self.page else { return }
            self.shelf.message = failure.map { "Could not read every highlight: \($0.userMessage)" }
            var books: [String: LibraryEntry] = [:], rank: [String: Int] = [:]
            for (index, item) in found.enumerated() {
                books[item.annotation.id] = item.entry
                rank[item.annotation.id] = index
            }
            // The library's order (by title), each book's in the store's reading order.
            let state = AnnotationListState(annotations: found.map(\.annotation), order: { (0, rank[$0.id] ?? 0) },
                                            chapterTitle: { _ in "" },
                                            visibleRows: PopupViews.listRows(windowRows: self.screen.size.rows), books: books)
            self.overlays.append(AnnotationListScreen(state: state, inLibrary: true))
            self.render()
        }
    }

    /// Where an annotation is, as the reader resolves a locator: its chapter and progression,
    /// and its quote (kept in memory only) to find the exact words.
    static func locator(of annotation: Annotation) -> Locator {
        let quote = annotation.target.quote
        return Locator(href: annotation.target.href, mediaType: nil,
                       locations: Locator.Locations(progression: annotation.target.progression),
                       text: Locator.Text(before: quote.flatMap { $0.prefix.isEmpty ? nil : $0.prefix }, highlight: quote?.exact))
    }
}

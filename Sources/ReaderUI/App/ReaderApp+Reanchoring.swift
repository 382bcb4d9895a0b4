import Annotations
import Bookshelf
import FoundationEssentials
import Shared
import TextLayout

extension ReaderApp {
    /// Checks the highlights of the chapter shown against its text, once per chapter and per
    /// reading of the library: a highlight whose stored range no longer holds its quote (a new
    /// edition of the file, a conversion rule changed) is drawn where its quote is found and
    /// the range saved back; one whose quote is nowhere is not drawn and is listed as orphaned.
    ///
    /// All of it runs off the main actor, and the chapter's text is prepared for anchoring
    /// only when some quote differs from the text at its range. Highlights without a quote (a
    /// protected book's, sealed) are drawn by their range, as they cannot be checked.
    func reanchorHighlights(_ book: BookController) {
        let chapter = book.state.chapter
        guard book.highlights.isLoaded, book.partialChapter == nil, book.loadingChapter == nil,
              let document = book.document, book.highlights.anchoredChapters[chapter] != document.length else { return }
        let length = document.length
        book.highlights.anchoredChapters[chapter] = length
        let targets = book.highlights.annotations.compactMap { annotation -> (String, AnnotationTarget)? in
            guard annotation.target.quote != nil, annotation.target.textRange != nil,
                  book.chapterIndex(of: annotation.target.href) == chapter else { return nil }
            return (annotation.id, annotation.target)
        }
        guard !targets.isEmpty else { return }
        book.tasks.start(nil, computing: {
            await Blocking.run { Self.anchor(targets, in: document) }
        }, then: { [weak self, weak book] found in
            guard let self, let book, book.highlights.anchoredChapters[chapter] == length else { return }
            let moved = book.highlights.applyAnchoring(moved: found.moved, orphaned: found.orphaned, checked: found.checked,
                                                       chapterOf: { book.chapterIndex(of: $0.target.href) })
            for annotation in moved {
                // The correction only: the person did not change it, so its modified time stays
                // (a sync would otherwise let this device's guess win over another's edit).
                writeAnnotation(book, failure: "Could not save the highlight's new place") { (store: BookAnnotationStore) async throws(LibraryError) in
                    try await store.save(annotation)
                }
            }
            if !moved.isEmpty || !found.orphaned.isEmpty { self.render() }
        })
    }

    /// What anchoring found in a chapter: the ranges to move, the orphans, and every
    /// annotation checked.
    struct ChapterAnchoring: Sendable {
        var moved: [String: (from: Range<Int>, to: Range<Int>)] = [:]
        var orphaned: Set<String> = []
        var checked: Set<String> = []
    }

    /// Places `targets` in `document`: those whose range holds their quote exactly stay (no
    /// preparation of the text at all when every one does), the others are located.
    nonisolated static func anchor(_ targets: [(String, AnnotationTarget)], in document: TextDocument) -> ChapterAnchoring {
        var result = ChapterAnchoring()
        let length = document.length
        var stale: [(String, AnnotationTarget)] = []
        for (id, target) in targets {
            result.checked.insert(id)
            guard let range = target.textRange, let quote = target.quote else { continue }
            if range.lowerBound >= 0, range.upperBound <= length, document.text(in: range) == quote.exact { continue }
            stale.append((id, target))
        }
        guard !stale.isEmpty else { return result }
        let text = AnchoringText(document.plainText)
        for (id, target) in stale {
            switch QuoteAnchoring.locate(target, in: text) {
            case .placed:
                break
            case .reanchored(let range):
                if let from = target.textRange, from != range { result.moved[id] = (from, range) }
            case .orphaned:
                result.orphaned.insert(id)
            }
        }
        return result
    }
}

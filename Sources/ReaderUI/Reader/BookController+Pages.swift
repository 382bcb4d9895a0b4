import Shared

/// The printed pages of a book with a page list (EPUB `page-list`, NCX `pageList`, RWPM
/// `pageList`; #29 item 8): the one the page shown is on, and where page N begins. A PDF's
/// pages are its chapters, named by their labels (``ChapterSource/pageLabel(_:)``).
extension BookController {
    /// The page list placed in the reading order; empty for a PDF and a book without one.
    static func printedPages(of publication: Publication, source: ChapterSource) -> ContentsSections {
        guard !source.isPaged else { return .empty }
        let pages = publication.pageList
        guard !pages.isEmpty else { return .empty }
        return sections(of: TableOfContentsIndex(pages), source: source)
    }

    /// The printed page the top line shown is on: the last page-list entry whose anchor is on
    /// or above it in the chapter shown, else the last one of the chapters before. Nil for a
    /// book without a page list, and before its first page.
    var printedPage: String? {
        guard !printedPages.isEmpty, state.layout != nil else { return nil }
        var best: (line: Int, title: String)?
        for entry in printedPages.entriesByChapter[state.chapter] ?? [] {
            let page = printedPages.index.entries[entry]
            guard let line = lineOfEntry(page), line <= state.top else { continue }
            if best == nil || line >= best!.line { best = (line, page.title) }
        }
        if let best { return best.title }
        for chapter in stride(from: state.chapter - 1, through: 0, by: -1) {
            if let last = printedPages.entriesByChapter[chapter]?.last { return printedPages.index.entries[last].title }
        }
        return nil
    }

    /// The href where printed page `label` begins (its label compared without case or
    /// surrounding spaces); nil when the page list has no such page.
    func printedPageHref(_ label: String) -> String? {
        let wanted = label.trimmed.lowercased()
        guard !wanted.isEmpty else { return nil }
        return printedPages.index.entries.first { $0.title.trimmed.lowercased() == wanted }?.href
    }

    /// The first and last labels of the page list, to say which pages there are.
    var printedPageRange: (first: String, last: String)? {
        let entries = printedPages.index.entries
        guard let first = entries.first, let last = entries.last else { return nil }
        return (first.title, last.title)
    }
}

extension ReaderApp {
    /// `:N` in a book with a page list: printed page N (#29 item 8), or why not.
    func goToPrintedPage(_ book: BookController, label: String) {
        guard let href = book.printedPageHref(label) else {
            let range = book.printedPageRange.map { " (its pages run \($0.first)–\($0.last))" } ?? ""
            message = "No page \(label.trimmed) in this book\(range)."
            return
        }
        recordJump(book)
        jump(book, to: href)
    }
}

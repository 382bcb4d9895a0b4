/// The text of a paged publication (PDF), page by page, for a reader that shows text rather
/// than rendering pages, and for search.
///
/// Installed by the PDF parser, for PDF files and LCP-protected PDF packages. Pages are
/// numbered from 0 here; ``pageLabel(ofPage:)`` gives what to show a person ("iv", "12").
///
/// Calls block while the document is read: make them from a background task. Showing the
/// text is not copying it; handing it to the clipboard, a file or a printer is, and must go
/// through ``Publication/rights`` first.
public protocol PageTextService: PublicationService {
    /// The number of pages (0 when the document cannot be read, e.g. a restricted publication).
    var pageCount: Int { get }

    /// The text of the page at 0-based `index`, in reading order, right-to-left runs in
    /// logical order; nil when the page does not exist or cannot be read.
    func text(ofPage index: Int) -> String?

    /// The page's text in blocks: headings, paragraphs (lines joined by `"\n"`), and running
    /// heads and page numbers apart, for a reader that reflows it; nil as ``text(ofPage:)``.
    func textBlocks(ofPage index: Int) -> [PageTextBlock]?

    /// The page's label from the document (`/PageLabels`), else its 1-based number.
    func pageLabel(ofPage index: Int) -> String?
}

extension PageTextService {
    /// The text as one paragraph, for services that know no more of the page's layout.
    public func textBlocks(ofPage index: Int) -> [PageTextBlock]? {
        text(ofPage: index).map { $0.isEmpty ? [] : [PageTextBlock(kind: .paragraph, text: $0)] }
    }

    /// The first page at or after `start` (wrapping around) whose text contains `query`,
    /// compared without regard to case; nil when no page does.
    public func firstPage(containing query: String, from start: Int = 0) -> Int? {
        let count = pageCount
        guard count > 0, !query.isEmpty else { return nil }
        let needle = query.lowercased()
        let first = min(max(start, 0), count - 1)
        for offset in 0..<count {
            let index = (first + offset) % count
            if let text = text(ofPage: index), text.lowercased().contains(needle) { return index }
        }
        return nil
    }

    /// The 0-based index of the page labelled `label`, else of page number `label` (1-based);
    /// nil when neither exists. For "go to page".
    public func pageIndex(forLabel label: String) -> Int? {
        let wanted = label.trimmed
        if let index = (0..<pageCount).first(where: { pageLabel(ofPage: $0) == wanted }) { return index }
        if let number = Int(wanted), number >= 1, number <= pageCount { return number - 1 }
        return nil
    }
}

extension Publication {
    /// The page text service of a PDF publication.
    public var pageTextService: (any PageTextService)? { findService((any PageTextService).self) }
}

extension PublicationServicesBuilder {
    /// The role of the page text service.
    public static let pageText = "PageTextService"
}

/// A block of a page's text (see ``PageTextService/textBlocks(ofPage:)``).
public struct PageTextBlock: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// Lines set larger than the page's running text.
        case heading
        /// Running text, its lines joined by `"\n"`.
        case paragraph
        /// A running head or foot, or a page number.
        case margin
    }

    public let kind: Kind
    public let text: String

    public init(kind: Kind, text: String) {
        self.kind = kind
        self.text = text
    }
}

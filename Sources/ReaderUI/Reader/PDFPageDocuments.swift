import Shared
import TextLayout

/// The text of a PDF's pages as the reader shows it in text mode (each page a chapter of
/// ``ChapterSource``, its blocks reflowed by ``SyntheticDocuments/page(blocks:href:label:language:)``),
/// for `lectern render`, which prints what the reader lays out.
public struct PDFPageDocuments: Sendable {
    private let source: ChapterSource

    /// Nil when `publication` is not a PDF with pages of text.
    public init?(_ publication: Publication) {
        let source = ChapterSource(publication: publication)
        guard source.isPaged else { return nil }
        self.source = source
    }

    /// The number of pages.
    public var count: Int { source.count }

    /// Page `index` (from 0) as a document; a page saying why when it cannot be read.
    /// Blocks (reads the PDF): not on the main actor.
    public func document(_ index: Int) -> TextDocument { source.document(index) }
}

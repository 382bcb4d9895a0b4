import Pictures
import Shared
import TextLayout

/// What the reader pages through, one "chapter" at a time: the content documents of the
/// reading order, or the pages of a PDF (through the publication's ``PageTextService``), each
/// page its own chapter so that page numbers, go-to-page and search follow the PDF's pages.
///
/// Loading blocks (reading, decrypting, parsing): call ``document(_:)`` and ``load(_:)`` off
/// the main actor.
struct ChapterSource: Sendable {
    private enum Kind: Sendable {
        case readingOrder(ContentDocumentLoader)
        case pages(any PageTextService, href: String)
    }

    private let kind: Kind
    private let publication: Publication
    /// The number of chapters (reading-order items, or PDF pages).
    let count: Int
    /// Whether the pixel sizes of a chapter's images are read when it is loaded, so that the
    /// layout leaves rows for them (pictures on).
    let measuresPictures: Bool

    init(publication: Publication, measuresPictures: Bool = false) {
        self.publication = publication
        self.measuresPictures = measuresPictures
        if let pages = publication.pageTextService, pages.pageCount > 0 {
            kind = .pages(pages, href: publication.readingOrder.first.map { Href.removingFragment($0.href) } ?? "document.pdf")
            count = pages.pageCount
        } else {
            kind = .readingOrder(ContentDocumentLoader(publication: publication))
            count = publication.readingOrder.count
        }
    }

    /// Whether the chapters are the pages of a PDF.
    var isPaged: Bool {
        if case .pages = kind { return true }
        return false
    }

    /// The href of chapter `index` (`file.pdf#page=N` for a PDF page, 1-based as in PDF
    /// fragment identifiers).
    func href(_ index: Int) -> String {
        switch kind {
        case .readingOrder: publication.readingOrder.indices.contains(index) ? publication.readingOrder[index].href : ""
        case .pages(_, let href): "\(href)#page=\(index + 1)"
        }
    }

    /// The chapter of `href` (its fragment ignored, except a PDF's `#page=N`).
    func index(of href: String) -> Int? {
        switch kind {
        case .readingOrder:
            let path = Href.removingFragment(href)
            return publication.readingOrder.firstIndex { Href.removingFragment($0.href) == path }
        case .pages:
            guard let fragment = Href.fragment(of: href), fragment.hasPrefix("page="),
                  let number = Int(fragment.dropFirst(5)), number >= 1, number <= count else { return 0 }
            return number - 1
        }
    }

    /// What the status line calls chapter `index`: a PDF page's label.
    func pageLabel(_ index: Int) -> String? {
        if case .pages(let pages, _) = kind { return pages.pageLabel(ofPage: index) ?? String(index + 1) }
        return nil
    }

    /// What the status line calls page `index` of a PDF: "Page 7 of 117", and when the page's
    /// label is not its number (front matter numbered apart), "Page 7 (10 of 117)" — so that
    /// text mode and picture mode ("10/117") name the same page the same way.
    func pageTitle(_ index: Int) -> String? {
        guard let label = pageLabel(index) else { return nil }
        return label == String(index + 1) ? "Page \(label) of \(count)" : "Page \(label) (\(index + 1) of \(count))"
    }

    /// The 0-based page labelled `label` (or numbered), for go-to-page in a PDF.
    func pageIndex(forLabel label: String) -> Int? {
        if case .pages(let pages, _) = kind { return pages.pageIndex(forLabel: label) }
        return nil
    }

    /// The document of chapter `index`, or nil when it cannot be read (search, counting).
    func load(_ index: Int) -> TextDocument? {
        try? loadOrThrow(index)
    }

    /// The document of chapter `index`; a page explaining why when it cannot be read.
    func document(_ index: Int) -> TextDocument {
        do throws(ContentLoadError) {
            return try loadOrThrow(index)
        } catch {
            let link = publication.readingOrder.indices.contains(index) ? publication.readingOrder[index] : Link(href: href(index))
            return SyntheticDocuments.unreadable(link: link, error: error, publication: publication)
        }
    }

    /// The document of chapter `index` like ``document(_:)``, calling `firstPart` with the
    /// chapter's beginning as soon as it holds `length` offsets, while the rest is converted:
    /// a long chapter's first page need not wait for its end. Not called for short chapters.
    /// `recorded` is handed the chapter's checkpoints (none for a short chapter), where a
    /// later reopening deep inside may start converting (``part(_:from:to:)``).
    func document(_ index: Int, firstPartLength length: Int?, recorded: ([ChapterCheckpoint]) -> Void = { _ in },
                  firstPart: (TextDocument) -> Void) -> TextDocument {
        do throws(ContentLoadError) {
            return try withoutActuallyEscaping(recorded) { recorded throws(ContentLoadError) in
                try loadOrThrow(index, firstPartLength: length, recorded: recorded, firstPart: firstPart)
            }
        } catch {
            let link = publication.readingOrder.indices.contains(index) ? publication.readingOrder[index] : Link(href: href(index))
            return SyntheticDocuments.unreadable(link: link, error: error, publication: publication)
        }
    }

    /// The stretch of chapter `index` from `checkpoint` to `end` (nil: its end), converted
    /// alone up to the block that reaches text offset `stopOffset`
    /// (``ContentDocumentLoader/loadPart(_:from:to:stoppingAt:)``); nil when the chapter does
    /// not match the checkpoints or cannot be read.
    func part(_ index: Int, from checkpoint: ChapterCheckpoint, to end: ChapterCheckpoint?, stoppingAt stopOffset: Int? = nil) -> ChapterPart? {
        guard case .readingOrder(let loader) = kind, publication.readingOrder.indices.contains(index),
              var part = try? loader.loadPart(publication.readingOrder[index], from: checkpoint, to: end, stoppingAt: stopOffset)
        else { return nil }
        part.document = withPictureSizes(part.laidOutDocument)
        return part
    }

    private func loadOrThrow(_ index: Int, firstPartLength: Int? = nil, recorded: (([ChapterCheckpoint]) -> Void)? = nil,
                             firstPart: (TextDocument) -> Void = { _ in }) throws(ContentLoadError) -> TextDocument {
        switch kind {
        case .readingOrder(let loader):
            guard publication.readingOrder.indices.contains(index) else { throw .notText(href: "", nil) }
            let link = publication.readingOrder[index]
            if let firstPartLength {
                return withPictureSizes(try loader.load(link, firstPartLength: firstPartLength, recordingCheckpoints: recorded) {
                    firstPart(withPictureSizes($0))
                })
            }
            if let recorded {
                let (document, checkpoints) = try loader.load(link, recordingCheckpoints: true)
                recorded(checkpoints)
                return withPictureSizes(document)
            }
            return withPictureSizes(try loader.load(link))
        case .pages(let pages, _):
            let blocks = pages.textBlocks(ofPage: index) ?? []
            return SyntheticDocuments.page(blocks: blocks, href: href(index), label: pages.pageLabel(ofPage: index), language: publication.metadata.languages.first)
        }
    }

    /// `document` with the pixel sizes of its images, when pictures are measured: each image's
    /// header (its first 64 KiB, through the fetcher), so that rows are left for it.
    private func withPictureSizes(_ document: TextDocument) -> TextDocument {
        guard measuresPictures else { return document }
        var document = document
        document.readPictureSizes { href in
            FigureRenderer.declaredSize(of: publication.get(href)).map { TextDocument.PixelSize(width: $0.width, height: $0.height) }
        }
        return document
    }
}

import Bookshelf
import Shared
import TextLayout

/// Cuts the text of a publication's reading order into passages for the library's full-text
/// index: the text as the reader shows it (``TextDocument/plainText``), so that a passage's
/// offsets are the reader's positions, in chunks of whole paragraphs of about
/// ``targetLength`` characters (a paragraph longer than that is cut at a space).
public struct PublicationTextChunker: Sendable {
    /// About a screenful: long enough for a snippet with context, short enough that a hit
    /// points at one place.
    public static let targetLength = 1_500

    public let publication: Publication
    private let loader: ContentDocumentLoader
    /// The pages of a paged publication (PDF, DjVu), which the reader shows one a chapter.
    private let pages: (any PageTextService)?

    public init(publication: Publication) {
        self.publication = publication
        loader = ContentDocumentLoader(publication: publication)
        pages = publication.pageTextService.flatMap { $0.pageCount > 0 ? $0 : nil }
    }

    /// The number of reading-order items, or of pages of a paged publication.
    public var itemCount: Int { pages?.pageCount ?? publication.readingOrder.count }

    /// The chunks of reading-order item `index`: none for an item without text (audio, an
    /// image) or one libxml2 cannot parse at all (it has no text to find).
    ///
    /// - Throws: the item cannot be read (missing, damaged): not "no text", which the index
    ///   would then hold as if it were the whole of it.
    public func chunks(ofItem index: Int) throws(ContentLoadError) -> [TextChunk] {
        if let pages { return pageChunks(pages, index) }
        guard publication.readingOrder.indices.contains(index) else { return [] }
        let link = publication.readingOrder[index]
        let document: TextDocument
        do throws(ContentLoadError) {
            document = try loader.load(link)
        } catch {
            switch error {
            case .resource: throw error
            case .notText, .malformed: return []
            }
        }
        guard !document.isEmpty else { return [] }
        return Self.chunks(of: document.plainText, href: document.href)
    }

    /// Page `index`'s text as the reader reflows it (running heads and page numbers left out,
    /// a paragraph's lines joined), at `<document>#page=N` — where the reader opens a hit.
    private func pageChunks(_ pages: any PageTextService, _ index: Int) -> [TextChunk] {
        guard let blocks = pages.textBlocks(ofPage: index) else { return [] }
        let text = blocks.filter { $0.kind != .margin }
            .map { $0.text.split(separator: "\n").joined(separator: " ") + "\n" }.joined()
        let href = publication.readingOrder.first.map { Href.removingFragment($0.href) } ?? ""
        return Self.chunks(of: text, href: "\(href)#page=\(index + 1)")
    }

    private static let sentenceOrWordEnds: Set<Character> = [" ", "。", "！", "？", "\u{0E2F}", "\u{17D4}"]

    /// `text` (paragraphs ending with a line feed) cut into chunks.
    static func chunks(of text: String, href: String) -> [TextChunk] {
        let length = text.count
        var chunks: [TextChunk] = []
        var current = ""
        var currentCount = 0
        var start = 0
        func flush() {
            if current.contains(where: { $0.isLetter || $0.isNumber }) {
                chunks.append(TextChunk(href: href, start: start, resourceLength: length, text: current))
            }
            start += currentCount
            current = ""
            currentCount = 0
        }
        for character in text {
            current.append(character)
            currentCount += 1
            if character == "\n", currentCount >= targetLength {
                flush()
            } else if currentCount >= 2 * targetLength, Self.sentenceOrWordEnds.contains(character) {
                // A very long paragraph: cut at a space (or a full stop of an unspaced script).
                flush()
            } else if currentCount >= 4 * targetLength {
                // No space at all (an unspaced script): cut anywhere.
                flush()
            }
        }
        flush()
        return chunks
    }
}

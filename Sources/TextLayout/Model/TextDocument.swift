/// A content document (one XHTML resource of a publication) converted to blocks of styled
/// text: the input of the layout, independent of the text width.
///
/// Positions are *offsets* in the document text: the clusters of every block (and table
/// cell) in order, each block followed by one separator. They do not depend on the width,
/// so a position saved at one width is found again at another.
public struct TextDocument: Sendable {
    /// The href of the resource (relative to the package root), for locators.
    public let href: String
    /// The document's `<title>`, when it has one.
    public internal(set) var title: String?
    /// The language of the document root (`xml:lang`/`lang`), else the publication's.
    public internal(set) var language: String?
    public internal(set) var blocks: [TextBlock]
    /// The links of the document; ``TextStyle/linkIndex`` points here.
    public internal(set) var links: [LinkTarget]
    /// Element ids and where they are: for fragment links, table-of-contents entries and notes.
    public internal(set) var anchors: [String: Anchor]
    /// Footnotes and endnotes hidden from the main flow (`<aside epub:type="footnote">`…), by id.
    public internal(set) var notes: [String: TextDocument]
    /// The images of the document (`<img>`, `<svg><image>`, `<picture>`), in order.
    public internal(set) var images: [ImageReference] = []
    /// The pixel size of images, by href, as far as it is known (read from their headers by
    /// whoever loads the document): an image with a size is laid out as a picture, the rows
    /// it takes left blank for it, above the block that holds it.
    public var pictureSizes: [String: PixelSize] = [:]

    /// Fills ``pictureSizes`` for the images whose size is not known yet, from `size` (which
    /// reads an image's header; nil when it cannot tell).
    public mutating func readPictureSizes(_ size: (String) -> PixelSize?) {
        for image in images where pictureSizes[image.href] == nil {
            if let found = size(image.href) { pictureSizes[image.href] = found }
        }
    }

    /// An image in the document.
    public struct ImageReference: Sendable, Hashable {
        /// The image resource, resolved against the document.
        public let href: String
        /// Its alternative text (shown under it, as the caption line).
        public let alt: String
        /// The block that holds it.
        public let blockIndex: Int
    }

    /// A picture's size in pixels.
    public struct PixelSize: Sendable, Hashable {
        public let width: Int
        public let height: Int
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    /// Where an element with an id is.
    public struct Anchor: Sendable, Hashable {
        /// The offset of the element's first character.
        public var offset: Int
        /// The blocks the element spans (the block containing it, for inline elements).
        public var blocks: Range<Int>
    }

    init(href: String, title: String? = nil, language: String? = nil, blocks: [TextBlock] = [],
         links: [LinkTarget] = [], anchors: [String: Anchor] = [:], notes: [String: TextDocument] = [:]) {
        self.href = href
        self.title = title
        self.language = language
        self.blocks = blocks
        self.links = links
        self.anchors = anchors
        self.notes = notes
    }

    /// The number of offsets in the document text.
    public var length: Int { blocks.last.map { $0.offset + $0.length } ?? 0 }

    /// Whether the document has no text at all.
    public var isEmpty: Bool { blocks.isEmpty }

    /// The link a style points to.
    public func link(of style: TextStyle) -> LinkTarget? {
        style.linkIndex.flatMap { links.indices.contains($0) ? links[$0] : nil }
    }

    /// The offset of the element with id `fragment` (a `#fragment` of an href, without `#`).
    public func offset(ofFragment fragment: String) -> Int? {
        anchors[fragment]?.offset
    }

    /// The index of the block containing `offset` (the last block for offsets past the end).
    public func blockIndex(containing offset: Int) -> Int? {
        guard !blocks.isEmpty else { return nil }
        var low = 0, high = blocks.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if blocks[middle].offset <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Every text of the document with the offset of its first cluster: block texts and
    /// table cells, in document order.
    var texts: [(offset: Int, text: InlineText)] {
        var result: [(Int, InlineText)] = []
        for block in blocks {
            if let table = block.table {
                for row in table.rows { for cell in row { result.append((cell.offset, cell.text)) } }
            } else {
                result.append((block.offset, block.text))
            }
        }
        return result
    }

    /// The text at `offsets`, in logical order: paragraphs end with a line feed, table cells
    /// with a tab; generated text (list markers, ruby annotations, image placeholders) is
    /// included, as on screen.
    public func text(in offsets: Range<Int>) -> String {
        var result = ""
        guard let first = blockIndex(containing: offsets.lowerBound) else { return result }
        for block in blocks[first...] {
            guard block.offset < offsets.upperBound else { break }
            var pieces: [(offset: Int, text: InlineText, separator: Character)] = []
            if let table = block.table {
                for row in table.rows {
                    for (column, cell) in row.enumerated() {
                        pieces.append((cell.offset, cell.text, column == row.count - 1 ? "\n" : "\t"))
                    }
                }
            } else {
                pieces.append((block.offset, block.text, "\n"))
            }
            for piece in pieces {
                let start = max(offsets.lowerBound, piece.offset), end = min(offsets.upperBound, piece.offset + piece.text.count + 1)
                guard start < end else { continue }
                for offset in start..<end {
                    let index = offset - piece.offset
                    result.append(index < piece.text.count ? piece.text.characters[index] : piece.separator)
                }
            }
        }
        return result
    }

    /// The whole text, in logical order (see ``text(in:)``).
    public var plainText: String { text(in: 0..<length) }
}

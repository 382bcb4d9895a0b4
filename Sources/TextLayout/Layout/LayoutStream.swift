/// Lays out a document's blocks one at a time, in order, as they arrive: what
/// ``LayoutEngine`` does for a whole document, for a conversion that hands its blocks on as it
/// makes them (``ContentDocumentLoader/forEachBlock(of:_:)``), so that neither the document
/// nor its lines are ever held whole.
///
/// The lines of a block depend on the block before it (the blank lines between them, a
/// paragraph's first-line indent): the stream keeps that block's kind, nothing else.
public struct LayoutStream: Sendable {
    public let options: LayoutOptions
    /// The kind of the block laid out last.
    private var previous: TextBlock.Kind?

    public init(options: LayoutOptions) {
        self.options = options
    }

    /// A stream that continues after a block of kind `previous`.
    init(options: LayoutOptions, previous: TextBlock.Kind?) {
        self.options = options
        self.previous = previous
    }

    /// Appends to `lines` the lines of `block`, the block at `index` in its document: the
    /// blank lines that separate it from the previous block, the rows of its `images` whose
    /// size `sizes` gives (when ``LayoutOptions/pictureCell`` is set), then its text. Returns
    /// the index in `lines` of the block's first line of text.
    @discardableResult
    public mutating func append(_ block: TextBlock, index: Int, images: [TextDocument.ImageReference] = [],
                                sizes: [String: TextDocument.PixelSize] = [:], to lines: inout [LayoutLine]) -> Int {
        if let previous {
            var blanks = block.spaceBefore ? 1 : 0
            if block.kind == .paragraph, previous == .paragraph { blanks = max(blanks, options.paragraphSpacing) }
            for _ in 0..<blanks {
                lines.append(LayoutLine(kind: .blank, spans: [], blockIndex: nil, offsets: block.offset..<block.offset,
                                        direction: block.direction, endsBlock: false))
            }
        }
        if !images.isEmpty, let cell = options.pictureCell {
            LayoutEngine.appendPictureRows(images, sizes: sizes, block: block, cell: cell, options: options, into: &lines)
        }
        let first = lines.count
        let indent = block.kind == .paragraph && previous == .paragraph && !block.spaceBefore ? options.paragraphIndent : 0
        LayoutEngine.layoutBlock(block, index: index, firstLineIndent: indent, options: options, into: &lines)
        previous = block.kind
        return first
    }
}

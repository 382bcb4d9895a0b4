/// A place in a long chapter's source where its conversion can start over, with what the
/// conversion had counted up to there: the start of a child element of `<body>`, between two
/// blocks. Recorded while a chapter is converted whole
/// (``ContentDocumentParser/parse(html:href:language:readingProgression:options:recordingCheckpointsEvery:)``),
/// so that reopening the chapter deep inside converts from the nearest one before the place,
/// not the whole text before it (#28).
///
/// Offsets and counts only: no text of the book, so they may be kept beside the chapter
/// lengths even for a protected book.
public struct ChapterCheckpoint: Sendable, Hashable, Codable {
    /// The end of the `<body …>` start tag in the source: the head and body start tag, kept in
    /// front of the part so that it is converted in the same context.
    public var bodyStart: Int
    /// The offset in the source of the element's `<`.
    public var byte: Int
    /// The text offset of the element's first character in the whole document.
    public var offset: Int
    /// The blocks before it.
    public var blocks: Int
    /// The links before it (a link's index is its place in the document's links).
    public var links: Int
    /// The note references without a number of their own before it (they are numbered on).
    public var noteMarkers: Int
    /// Whether the next block is spaced from the one before it.
    public var spacePending: Bool
    /// The offsets of the start tags of the plain wrappers (`<section>`, `<div>`) the element
    /// is in, outermost first: put in front of the part too.
    public var wrappers: [Int]

    public init(bodyStart: Int, byte: Int, offset: Int, blocks: Int, links: Int, noteMarkers: Int, spacePending: Bool,
                wrappers: [Int] = []) {
        self.bodyStart = bodyStart
        self.byte = byte
        self.offset = offset
        self.blocks = blocks
        self.links = links
        self.noteMarkers = noteMarkers
        self.spacePending = spacePending
        self.wrappers = wrappers
    }
}

extension ChapterCheckpoint {
    /// About how many source bytes apart a whole conversion records checkpoints: a part
    /// converted from one holds at most this much before the place (some 30,000 characters).
    public static let spacing = 32 * 1024

    /// The checkpoints as integers, eight each and their wrappers' (what the library keeps).
    public static func fields(of checkpoints: [ChapterCheckpoint]) -> [Int] {
        checkpoints.flatMap {
            [$0.bodyStart, $0.byte, $0.offset, $0.blocks, $0.links, $0.noteMarkers, $0.spacePending ? 1 : 0, $0.wrappers.count] + $0.wrappers
        }
    }

    /// The checkpoints written by ``fields(of:)``; none when the integers are not such a list.
    public static func checkpoints(fromFields fields: [Int]) -> [ChapterCheckpoint] {
        guard fields.allSatisfy({ $0 >= 0 }) else { return [] }
        var checkpoints: [ChapterCheckpoint] = []
        var index = 0
        while index < fields.count {
            guard index + 8 <= fields.count, fields[index + 7] <= 2, index + 8 + fields[index + 7] <= fields.count else { return [] }
            let wrappers = Array(fields[(index + 8)..<(index + 8 + fields[index + 7])])
            checkpoints.append(ChapterCheckpoint(bodyStart: fields[index], byte: fields[index + 1], offset: fields[index + 2],
                                                 blocks: fields[index + 3], links: fields[index + 4], noteMarkers: fields[index + 5],
                                                 spacePending: fields[index + 6] != 0, wrappers: wrappers))
            index += 8 + wrappers.count
        }
        let ordered = zip(checkpoints, checkpoints.dropFirst()).allSatisfy { $0.byte < $1.byte && $0.offset < $1.offset && $0.blocks <= $1.blocks }
        return ordered ? checkpoints : []
    }

    /// The stretch of a chapter to convert to show text offset `place` with `before` offsets
    /// before it and `after` after it: from the last checkpoint at or before `place - before`
    /// to the first at or after `place + after` (nil: the end of the chapter). Nil when no
    /// checkpoint is that far before the place: the chapter's first part is converted instead.
    public static func stretch(of checkpoints: [ChapterCheckpoint], showing place: Int, before: Int,
                               after: Int) -> (from: ChapterCheckpoint, to: ChapterCheckpoint?)? {
        guard let from = checkpoints.last(where: { $0.offset <= place - before }) else { return nil }
        return (from, checkpoints.first { $0.offset >= place + after && $0.byte > from.byte })
    }
}

/// A part of a chapter converted from a ``ChapterCheckpoint``: blocks `firstBlock…` of the
/// whole document, with the whole document's offsets, link indices, anchors and image block
/// indices (``TextDocument/links`` holds placeholders for the links before the part).
public struct ChapterPart: Sendable {
    public var document: TextDocument
    /// The index in the whole document of `document.blocks[0]`.
    public var firstBlock: Int
    /// The text offsets the part holds.
    public var offsets: Range<Int>
    /// The source bytes converted to get it (the head and the slice).
    public var bytes: Int
}

extension ChapterPart {
    /// The part as a document of its own for a layout, which counts blocks from the first it
    /// is given: image and anchor block indices counted from the part's first block (anchors
    /// that begin before it dropped); offsets and link indices stay the whole's.
    public var laidOutDocument: TextDocument {
        var document = self.document
        let first = firstBlock
        document.images = document.images.compactMap { image in
            image.blockIndex >= first ? TextDocument.ImageReference(href: image.href, alt: image.alt, blockIndex: image.blockIndex - first) : nil
        }
        document.anchors = document.anchors.compactMapValues { anchor in
            guard anchor.blocks.lowerBound >= first else { return nil }
            return TextDocument.Anchor(offset: anchor.offset, blocks: (anchor.blocks.lowerBound - first)..<(anchor.blocks.upperBound - first))
        }
        return document
    }
}

import Shared

/// Finds the note a note reference points to, for a popup: a footnote aside hidden from the
/// flow, or any element with the target id, in the same document or another one of the
/// publication (read and converted on demand).
public struct NoteResolver: Sendable {
    public let loader: ContentDocumentLoader

    public init(loader: ContentDocumentLoader) {
        self.loader = loader
    }

    public init(publication: Publication) {
        loader = ContentDocumentLoader(publication: publication)
    }

    /// The note at `target` (a link of `document`), as a document of its own to lay out in
    /// a popup; nil when the target has no fragment or cannot be found.
    public func note(for target: LinkTarget, in document: TextDocument) -> TextDocument? {
        guard !target.isExternal, let fragment = Href.fragment(of: target.href), !fragment.isEmpty else { return nil }
        let targetPath = Href.path(of: target.href)
        if targetPath == nil || targetPath == Href.path(of: document.href) {
            return Self.note(withID: fragment, in: document)
        }
        guard let other = try? loader.load(href: target.href) else { return nil }
        return Self.note(withID: fragment, in: other)
    }

    /// The note with id `id` in `document`: its hidden aside, else the blocks of the element
    /// with that id.
    public static func note(withID id: String, in document: TextDocument) -> TextDocument? {
        if let note = document.notes[id] { return note }
        guard let anchor = document.anchors[id], !anchor.blocks.isEmpty,
              anchor.blocks.upperBound <= document.blocks.count else { return nil }
        return document.subdocument(blocks: anchor.blocks)
    }
}

extension TextDocument {
    /// The blocks `range` as a document of their own, with offsets from 0.
    func subdocument(blocks range: Range<Int>) -> TextDocument {
        let base = blocks[range.lowerBound].offset
        var copied: [TextBlock] = []
        for var block in blocks[range] {
            block.offset -= base
            if var table = block.table {
                for row in table.rows.indices {
                    for cell in table.rows[row].indices { table.rows[row][cell].offset -= base }
                }
                block.table = table
            }
            if copied.isEmpty { block.spaceBefore = false }
            copied.append(block)
        }
        var anchors: [String: Anchor] = [:]
        for (id, anchor) in self.anchors where range.contains(anchor.blocks.lowerBound) {
            anchors[id] = Anchor(offset: anchor.offset - base,
                                 blocks: (anchor.blocks.lowerBound - range.lowerBound)..<(min(anchor.blocks.upperBound, range.upperBound) - range.lowerBound))
        }
        return TextDocument(href: href, title: nil, language: language, blocks: copied, links: links, anchors: anchors, notes: [:])
    }
}

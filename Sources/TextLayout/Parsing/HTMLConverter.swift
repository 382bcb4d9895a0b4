import LibXML
import Shared

/// Walks an HTML tree and emits ``TextBlock``s: the state of one conversion.
///
/// Recursion is bounded (``maximumDepth``): deeper elements contribute their text only, walked
/// with an explicit stack, so hostile nesting cannot exhaust a task's stack.
final class HTMLConverter {
    /// What an element inherits from its ancestors.
    struct Context {
        var style = TextStyle()
        var startIndent = 0
        var endIndent = 0
        var listDepth = 0
        var preformatted = false
        /// The nearest `dir` of a block ancestor.
        var direction: DirectionAttribute?
        var language: String?
    }

    enum DirectionAttribute {
        case leftToRight, rightToLeft, auto

        init?(_ value: String?) {
            switch value?.lowercased() {
            case "ltr": self = .leftToRight
            case "rtl": self = .rightToLeft
            case "auto": self = .auto
            default: return nil
            }
        }
    }

    struct ListState {
        var ordered: Bool
        var next: Int
        var step: Int
        var numbering: String
        var markerWidth: Int
    }

    struct PendingMarker {
        var text: String
        var width: Int
        var startIndent: Int
        var context: Context
    }

    static let maximumDepth = 64

    let href: String
    let defaultLanguage: String?
    let readingProgression: ReadingProgression
    let options: ContentParseOptions

    /// The blocks converted and still held (those handed on by ``takeBlocks()`` are not).
    var blocks: [TextBlock] = []
    /// The document index of `blocks[0]`: the number of blocks handed on by ``takeBlocks()``.
    var firstBlockIndex = 0
    /// The number of blocks converted so far: the document index of the next block.
    var blockCount: Int { firstBlockIndex + blocks.count }
    /// How many conversions in progress will still gather their blocks into one (a table cell
    /// joins its paragraphs): while any is, a new block is not final and nobody is told of it.
    var provisionalDepth = 0
    /// Told after each final block is appended (see ``ContentDocumentParser/parse(html:href:language:readingProgression:options:observer:)``).
    var blockObserver: ((HTMLConverter) -> Void)?
    /// Collects checkpoints as `<body>`'s children are converted (a whole conversion of a long chapter).
    var checkpointRecorder: CheckpointRecorder?
    /// The checkpoint a conversion of a part started at (``start(at:)``).
    var partCheckpoint: ChapterCheckpoint?
    /// Set by an observer that needs no more of the document (a first part converted from a
    /// prefix of the source): the rest of the tree is walked past, not converted.
    var isStopped = false
    /// How many bytes of the source were parsed to get here (nil when not known: parsed whole).
    var sourceBytesParsed: () -> Int? = { nil }
    var links: [LinkTarget] = []
    var images: [TextDocument.ImageReference] = []
    var anchors: [String: TextDocument.Anchor] = [:]
    var notes: [String: TextDocument] = [:]
    /// The note references seen so far whose marker has no number of its own (`*`, `†`).
    var unnumberedNoteMarkers = 0
    var title: String?
    var language: String?
    /// The next offset of the document text.
    var offset = 0

    /// The block being filled, its kind and the context it started in.
    var builder: InlineTextBuilder?
    var builderKind: TextBlock.Kind = .plain
    var builderContext = Context()
    var builderStartIndent = 0
    var builderHanging = 0
    var spacePending = false
    var pendingMarker: PendingMarker?
    var lists: [ListState] = []

    init(href: String, language: String?, readingProgression: ReadingProgression, options: ContentParseOptions) {
        self.href = href
        self.defaultLanguage = language
        self.readingProgression = readingProgression
        self.options = options
    }

    /// Converts the tree under `root` (the `<html>` element).
    func convert(_ root: XMLElement) -> TextDocument {
        walk(root, Context(language: defaultLanguage), depth: 0)
        flushBlock()
        emitPendingMarker()
        var document = TextDocument(href: href, title: title, language: language ?? defaultLanguage, blocks: blocks,
                                    links: links, anchors: anchors, notes: notes)
        document.images = images.filter { $0.blockIndex < blockCount }
        return document
    }

    /// The document as converted so far, when no block was handed on: the blocks, links,
    /// anchors and images seen. Its offsets are those of the whole document.
    func partialDocument() -> TextDocument {
        var document = TextDocument(href: href, title: title, language: language ?? defaultLanguage, blocks: blocks,
                                    links: links, anchors: anchors, notes: notes)
        document.images = images.filter { $0.blockIndex < blockCount }
        return document
    }

    /// Hands on the blocks held and their images, and forgets them: a streaming conversion
    /// keeps only the block being filled.
    func takeBlocks() -> (blocks: [TextBlock], images: [TextDocument.ImageReference]) {
        let taken = blocks
        firstBlockIndex += blocks.count
        blocks.removeAll()
        let takenImages = images.filter { $0.blockIndex < firstBlockIndex }
        images.removeAll { $0.blockIndex < firstBlockIndex }
        return (taken, takenImages)
    }

    /// Converts the children of `element` alone (a note).
    func convertChildren(of element: XMLElement, _ context: Context) -> TextDocument {
        var context = context
        context.startIndent = 0
        context.endIndent = 0
        context.listDepth = 0
        walkChildren(element, context, depth: 1)
        flushBlock()
        emitPendingMarker()
        return TextDocument(href: href, title: nil, language: context.language, blocks: blocks, links: links,
                            anchors: anchors, notes: notes)
    }
}

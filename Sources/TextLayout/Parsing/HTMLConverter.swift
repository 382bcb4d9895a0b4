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

    var blocks: [TextBlock] = []
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
        document.images = images.filter { $0.blockIndex < blocks.count }
        return document
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

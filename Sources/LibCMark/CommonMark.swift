import CLecternCMark
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Markdown (CommonMark with GitHub's tables, strikethrough, autolinks and task lists) turned
/// into HTML by cmark-gfm.
///
/// Raw HTML in the source is never passed through (cmark's safe mode writes a comment in its
/// place, and drops `javascript:` links): the output is markup Lectern's layout reads, not
/// whatever a file carried.
public enum CommonMark {
    /// A heading of the document, in order.
    public struct Heading: Sendable, Hashable {
        /// 1 to 6.
        public let level: Int
        /// Its text, inline markup removed.
        public let text: String
        /// The `id` given to it in ``Rendered/html``.
        public let id: String
    }

    /// The rendering of one document.
    public struct Rendered: Sendable {
        /// The HTML body content (no `<html>`/`<body>`), each heading with an `id`.
        public let html: String
        public let headings: [Heading]
        /// The URLs of the pictures, as written.
        public let imageURLs: [String]
    }

    /// Whether cmark-gfm could be loaded; it is loaded (dlopen) the first time this is read,
    /// not at start (#28), and its extensions registered.
    public static let isAvailable: Bool = {
        guard lectern_cmark_load() != 0 else { return false }
        lectern_cmark_gfm_core_extensions_ensure_registered()
        return true
    }()

    /// Renders `bytes` (UTF-8; invalid sequences are replaced).
    ///
    /// - Throws: ``CommonMarkError/libraryUnavailable`` when cmark-gfm is not installed.
    public static func render(_ bytes: some Collection<UInt8>) throws(CommonMarkError) -> Rendered {
        guard isAvailable else { throw .libraryUnavailable }
        let options = CMARK_OPT_VALIDATE_UTF8 | CMARK_OPT_FOOTNOTES
        guard let parser = lectern_cmark_parser_new(options) else { return Rendered(html: "", headings: [], imageURLs: []) }
        defer { lectern_cmark_parser_free(parser) }
        for name in ["table", "strikethrough", "autolink", "tasklist"] {
            if let extensionPointer = lectern_cmark_find_syntax_extension(name) {
                lectern_cmark_parser_attach_syntax_extension(parser, extensionPointer)
            }
        }
        let array = Array(bytes)
        array.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                lectern_cmark_parser_feed(parser, chars.baseAddress, chars.count)
            }
        }
        guard let root = lectern_cmark_parser_finish(parser) else { return Rendered(html: "", headings: [], imageURLs: []) }
        defer { lectern_cmark_node_free(root) }

        var headings: [Heading] = []
        var images: [String] = []
        if let iterator = lectern_cmark_iter_new(root) {
            defer { lectern_cmark_iter_free(iterator) }
            while case let event = lectern_cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
                guard event == CMARK_EVENT_ENTER, let node = lectern_cmark_iter_get_node(iterator) else { continue }
                switch lectern_cmark_node_get_type(node) {
                case CMARK_NODE_HEADING:
                    headings.append(Heading(level: Int(lectern_cmark_node_get_heading_level(node)), text: plainText(of: node),
                                            id: "heading-\(headings.count + 1)"))
                case CMARK_NODE_IMAGE:
                    if let url = lectern_cmark_node_get_url(node) { images.append(String(cString: url)) }
                default:
                    break
                }
            }
        }
        guard let rendered = lectern_cmark_render_html(root, options, lectern_cmark_parser_get_syntax_extensions(parser)) else {
            return Rendered(html: "", headings: headings, imageURLs: images)
        }
        defer { free(rendered) }
        let html = identifyingHeadings(String(cString: rendered), headings)
        return Rendered(html: html, headings: headings, imageURLs: images)
    }

    /// The text of `node`'s descendants (text, code spans, line breaks as spaces).
    private static func plainText(of node: OpaquePointer) -> String {
        var text = ""
        guard let iterator = lectern_cmark_iter_new(node) else { return text }
        defer { lectern_cmark_iter_free(iterator) }
        while case let event = lectern_cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let child = lectern_cmark_iter_get_node(iterator) else { continue }
            switch lectern_cmark_node_get_type(child) {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE:
                if let literal = lectern_cmark_node_get_literal(child) { text += String(cString: literal) }
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                text += " "
            default:
                break
            }
        }
        return text
    }

    /// Gives the n-th `<hN>` tag of cmark's output the n-th heading's id. cmark writes heading
    /// tags bare and escapes every `<` of the text, so the tags found are exactly the headings.
    private static func identifyingHeadings(_ html: String, _ headings: [Heading]) -> String {
        guard !headings.isEmpty else { return html }
        var output = ""
        output.reserveCapacity(html.utf8.count + headings.count * 20)
        var remaining = Substring(html)
        for heading in headings {
            let tag = "<h\(heading.level)>"
            guard let range = remaining.firstRange(of: tag) else { break }
            output += remaining[..<range.lowerBound]
            output += "<h\(heading.level) id=\"\(heading.id)\">"
            remaining = remaining[range.upperBound...]
        }
        output += remaining
        return output
    }
}

/// Why a Markdown document cannot be rendered.
public enum CommonMarkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// cmark-gfm is not installed (it is loaded on first use, not linked).
    case libraryUnavailable

    public var description: String {
        switch self {
        case .libraryUnavailable:
            "Markdown support needs cmark-gfm (libcmark-gfm-extensions\(CommonMarkError.libraryVersion)), which is not installed"
        }
    }

    /// The version in the names of cmark-gfm's library and Debian package, from the headers built against.
    static let libraryVersion = CMARK_GFM_VERSION_STRING
}

import LibXML
import Shared

/// Choices made when converting a content document to text.
public struct ContentParseOptions: Sendable, Hashable {
    /// What becomes of ruby annotations (`<rt>`): shown in parentheses after their base text
    /// (fullwidth parentheses after East Asian text: 山路（やまみち）), or dropped.
    public enum Ruby: Sendable, Hashable {
        case parenthesized, dropped
    }

    public var ruby: Ruby

    public init(ruby: Ruby = .parenthesized) {
        self.ruby = ruby
    }
}

/// Why a content document could not be converted.
public enum ContentParseError: Error, Sendable, Equatable, UserMessageConvertible {
    /// libxml2 could not make a tree of it at all.
    case malformed(String)

    public var userMessage: String {
        switch self {
        case .malformed(let reason): "the document cannot be read as HTML (\(reason))"
        }
    }
}

/// Converts an XHTML or HTML content document to a ``TextDocument``.
///
/// The document goes through libxml2's recovering HTML parser, so tag soup, HTML entities
/// (`&nbsp;`), unclosed elements and stray end tags are accepted, and nothing is fetched.
/// `<head>`, `<script>`, `<style>`, elements with `hidden` or an inline `display:none` are
/// left out; footnote asides are moved to ``TextDocument/notes``.
public enum ContentDocumentParser {
    /// Converts `bytes`, the resource at `href` (relative to the package root).
    ///
    /// - Parameters:
    ///   - language: the publication's language, used when the document has none.
    ///   - readingProgression: the publication's; with an unknown language, `rtl` makes
    ///     paragraphs without a strong character right-to-left.
    public static func parse(html bytes: some Collection<UInt8>, href: String, language: String? = nil,
                             readingProgression: ReadingProgression = .auto,
                             options: ContentParseOptions = ContentParseOptions()) throws(ContentParseError) -> TextDocument {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            return TextDocument(href: href, language: language)
        }
        // What libxml2's HTML parser cannot take as it is: an internal DTD subset (shown as
        // text) and nesting deeper than it builds (the rest of the chapter lost).
        let prepared = bytes.withContiguousStorageIfAvailable(prepare) ?? Array(bytes).withUnsafeBufferPointer(prepare)
        if let prepared {
            return try parseDocument(prepared, href: href, language: language, readingProgression: readingProgression, options: options)
        }
        return try parseDocument(bytes, href: href, language: language, readingProgression: readingProgression, options: options)
    }

    /// The bytes to parse instead of `bytes`, or nil when they can be parsed as they are.
    private static func prepare(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let withoutSubset = DoctypeSubsetRemover.removed(bytes) else { return NestingFlattener.flattened(bytes) }
        return withoutSubset.withUnsafeBufferPointer { NestingFlattener.flattened($0) } ?? withoutSubset
    }

    private static func parseDocument(_ bytes: some Collection<UInt8>, href: String, language: String?,
                                      readingProgression: ReadingProgression, options: ContentParseOptions,
                                      incremental: Bool = true) throws(ContentParseError) -> TextDocument {
        let convert = { (document: XMLDocument) -> TextDocument in
            HTMLConverter(href: href, language: language, readingProgression: readingProgression, options: options)
                .convert(document.root)
        }
        // Incrementally, the tree holds the element being converted and those whose whole
        // content a conversion needs (`<head>`, a table, a list, a footnote, SVG, MathML), not
        // the chapter; the whole-document parser is kept to check that both give the same text.
        let incremental = incremental
            && !(bytes.withContiguousStorageIfAvailable(TrailingContent.existsAfterDocumentEnd) ?? true)
        let parse: (String?) throws(XMLError) -> TextDocument = { encoding throws(XMLError) in
            if incremental { return try XMLDocument.parsingHTMLIncrementally(bytes, encoding: encoding, convert) }
            return convert(try XMLDocument(html: bytes, encoding: encoding))
        }
        do {
            return try parse(CharsetSniffer.encoding(of: bytes))
        } catch {
            do {
                return try parse("UTF-8")
            } catch {
                throw .malformed(error.description)
            }
        }
    }

    /// Converts `bytes` through libxml2's whole-document parser, building the whole tree first:
    /// the reference the incremental conversion is checked against.
    static func parseWholeDocument(html bytes: [UInt8], href: String, language: String? = nil,
                                   readingProgression: ReadingProgression = .auto,
                                   options: ContentParseOptions = ContentParseOptions()) throws(ContentParseError) -> TextDocument {
        let prepared = bytes.withUnsafeBufferPointer(prepare) ?? bytes
        return try parseDocument(prepared, href: href, language: language, readingProgression: readingProgression,
                                 options: options, incremental: false)
    }
}

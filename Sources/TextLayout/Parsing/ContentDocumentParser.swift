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
        try parse(html: bytes, href: href, language: language, readingProgression: readingProgression, options: options,
                  observer: nil)
    }

    /// Converts `bytes` like ``parse(html:href:language:readingProgression:options:)``, calling
    /// `firstPart` once with the document converted so far as soon as it holds `length`
    /// offsets: what a reader shows while the rest is converted. Its blocks, offsets, links and
    /// anchors are those of the whole document, which is returned at the end. Not called when
    /// the whole document is shorter.
    public static func parse(html bytes: some Collection<UInt8>, href: String, language: String? = nil,
                             readingProgression: ReadingProgression = .auto,
                             options: ContentParseOptions = ContentParseOptions(),
                             firstPartLength length: Int,
                             firstPart: (TextDocument) -> Void) throws(ContentParseError) -> TextDocument {
        try parse(html: bytes, href: href, language: language, readingProgression: readingProgression, options: options,
                  firstPartLength: length) { part, _ in firstPart(part) }
    }

    /// ``parse(html:href:language:readingProgression:options:firstPartLength:firstPart:)``,
    /// telling `firstPart` also how many bytes of `bytes` were parsed to get it (all of them
    /// when not known): what the first page waited for.
    static func parse(html bytes: some Collection<UInt8>, href: String, language: String?,
                      readingProgression: ReadingProgression, options: ContentParseOptions,
                      firstPartLength length: Int,
                      recorder: HTMLConverter.CheckpointRecorder? = nil,
                      firstPart: (TextDocument, _ bytesParsed: Int) -> Void) throws(ContentParseError) -> TextDocument {
        var told = false
        let count = bytes.count
        return try withoutActuallyEscaping(firstPart) { firstPart throws(ContentParseError) in
            try parse(html: bytes, href: href, language: language, readingProgression: readingProgression, options: options,
                      observer: { converter in
                guard !told, converter.offset >= length else { return }
                told = true
                firstPart(converter.partialDocument(), min(count, converter.sourceBytesParsed() ?? count))
            }, recorder: recorder)
        }
    }

    /// Converts `bytes`, handing each block to `body` as soon as it is final (with its images
    /// and its index in the document) and keeping none: the conversion holds the block being
    /// filled, not the chapter. Returns what is left of the document: title, language, links,
    /// anchors and notes, with no blocks.
    public static func forEachBlock(html bytes: some Collection<UInt8>, href: String, language: String? = nil,
                                    readingProgression: ReadingProgression = .auto,
                                    options: ContentParseOptions = ContentParseOptions(),
                                    _ body: (_ block: TextBlock, _ index: Int, _ images: [TextDocument.ImageReference]) -> Void)
        throws(ContentParseError) -> TextDocument {
        try withoutActuallyEscaping(body) { body throws(ContentParseError) in
            try parse(html: bytes, href: href, language: language, readingProgression: readingProgression, options: options) { converter in
                let first = converter.firstBlockIndex
                let (blocks, images) = converter.takeBlocks()
                for (number, block) in blocks.enumerated() {
                    let index = first + number
                    body(block, index, images.filter { $0.blockIndex == index })
                }
            }
        }
    }

    static func parse(html bytes: some Collection<UInt8>, href: String, language: String?,
                      readingProgression: ReadingProgression, options: ContentParseOptions,
                      observer: ((HTMLConverter) -> Void)?,
                      recorder: HTMLConverter.CheckpointRecorder? = nil) throws(ContentParseError) -> TextDocument {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            return TextDocument(href: href, language: language)
        }
        // What libxml2's HTML parser cannot take as it is: an internal DTD subset (shown as
        // text) and nesting deeper than it builds (the rest of the chapter lost).
        let prepared = bytes.withContiguousStorageIfAvailable(prepare) ?? Array(bytes).withUnsafeBufferPointer(prepare)
        if let prepared {
            // No checkpoints: their byte offsets would be the prepared bytes', and a part is read
            // by ranges from the source as it is (ContentDocumentLoader.loadPart).
            return try parseDocument(prepared, href: href, language: language, readingProgression: readingProgression,
                                     options: options, observer: observer, recorder: nil)
        }
        return try parseDocument(bytes, href: href, language: language, readingProgression: readingProgression,
                                 options: options, observer: observer, recorder: recorder)
    }

    /// The bytes to parse instead of `bytes`, or nil when they can be parsed as they are.
    static func prepare(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let withoutSubset = DoctypeSubsetRemover.removed(bytes) else { return NestingFlattener.flattened(bytes) }
        return withoutSubset.withUnsafeBufferPointer { NestingFlattener.flattened($0) } ?? withoutSubset
    }

    static func parseDocument(_ bytes: some Collection<UInt8>, href: String, language: String?,
                              readingProgression: ReadingProgression, options: ContentParseOptions,
                              observer: ((HTMLConverter) -> Void)? = nil,
                              recorder: HTMLConverter.CheckpointRecorder? = nil, start: ChapterCheckpoint? = nil,
                              incremental: Bool = true) throws(ContentParseError) -> TextDocument {
        recorder?.source = { offset, count in
            guard offset >= 0, offset < bytes.count else { return [] }
            return Array(bytes.dropFirst(offset).prefix(count))
        }
        let convert = { (document: XMLDocument) -> TextDocument in
            let converter = HTMLConverter(href: href, language: language, readingProgression: readingProgression, options: options)
            converter.blockObserver = observer
            recorder?.checkpoints = []
            converter.checkpointRecorder = recorder
            if let start { converter.start(at: start) }
            converter.sourceBytesParsed = { document.bytesParsed }
            return converter.convert(document.root)
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

import FoundationEssentials
import Shared

/// Why a resource could not be turned into text.
public enum ContentLoadError: Error, Sendable, UserMessageConvertible {
    /// The resource could not be read (missing, forbidden, damaged).
    case resource(href: String, ResourceError)
    /// The resource is not a text document (audio, PDF, an unknown binary).
    case notText(href: String, MediaType?)
    /// libxml2 could not parse it at all.
    case malformed(href: String, ContentParseError)

    public var userMessage: String {
        switch self {
        case .resource(let href, let error): "\(href): \(userMessageOf(error))"
        case .notText(let href, let type): "\(href): \(type.map { "a \($0.essence) resource" } ?? "this resource") has no text to show"
        case .malformed(let href, let error): "\(href): \(error.userMessage)"
        }
    }
}

private func userMessageOf(_ error: ResourceError) -> String { userMessage(of: error) }

/// Reads resources of a publication and converts them to ``TextDocument``s, one at a time:
/// opening a chapter reads that chapter only.
public struct ContentDocumentLoader: Sendable {
    public let publication: Publication
    public let options: ContentParseOptions
    /// Told how much of each document was converted before it was handed over.
    let observer: ConversionObserver?

    /// A loader of `publication`'s resources, telling the task's ``ConversionObserver/current``
    /// (if any) of every conversion.
    public init(publication: Publication, options: ContentParseOptions = ContentParseOptions()) {
        self.init(publication: publication, options: options, observer: ConversionObserver.current)
    }

    /// A loader of `publication`'s resources that tells `observer` of every conversion.
    public init(publication: Publication, options: ContentParseOptions, observer: ConversionObserver?) {
        self.publication = publication
        self.options = options
        self.observer = observer
    }

    /// Reads and converts the resource of `link` (usually an item of the reading order).
    /// HTML and XHTML are converted; an image becomes an `[image: …]` line; plain text is
    /// shown as preformatted text; anything else is ``ContentLoadError/notText(href:_:)``.
    public func load(_ link: Link) throws(ContentLoadError) -> TextDocument {
        try convert(link) { source, href, language, progression throws(ContentParseError) in
            let document = try ContentDocumentParser.parse(html: source, href: href, language: language, readingProgression: progression,
                                                           options: options)
            observer?(.whole(href: href, length: document.length, bytes: source.count))
            return document
        }
    }

    /// Resources smaller than this are converted whole before anything is shown: they take a
    /// few milliseconds, and a first part would only make the reader wait for their end.
    public static let firstPartMinimumBytes = 256 * 1024

    /// Reads and converts the resource of `link` like ``load(_:)``, calling `firstPart` with
    /// the beginning of the document as soon as it holds `length` offsets, while the rest is
    /// converted (see ``ContentDocumentParser/parse(html:href:language:readingProgression:options:firstPartLength:firstPart:)``).
    /// Not called for resources under ``firstPartMinimumBytes``.
    public func load(_ link: Link, firstPartLength length: Int, firstPart: (TextDocument) -> Void) throws(ContentLoadError) -> TextDocument {
        try load(link, firstPartLength: length, recordingCheckpoints: nil, firstPart: firstPart)
    }

    /// ``load(_:firstPartLength:firstPart:)``, handing `recordingCheckpoints` the
    /// ``ChapterCheckpoint``s recorded on the way (a long resource's; none for a short one).
    ///
    /// A resource whose length is known to be long has its first part converted from a prefix
    /// of it (``firstPart(fromPrefixOf:firstPartLength:recording:firstPart:)``) before the
    /// whole is read: a deflated chapter of 65 MB is not inflated whole before its first page.
    public func load(_ link: Link, firstPartLength length: Int, recordingCheckpoints: (([ChapterCheckpoint]) -> Void)?,
                     firstPart: (TextDocument) -> Void) throws(ContentLoadError) -> TextDocument {
        var told = false
        return try convert(link, beforeReading: { opened in
            told = self.firstPart(fromPrefixOf: opened, firstPartLength: length,
                                  recording: recordingCheckpoints != nil, firstPart: firstPart)
            return nil
        }) { source, href, language, progression throws(ContentParseError) in
            guard source.count >= Self.firstPartMinimumBytes else {
                let document = try ContentDocumentParser.parse(html: source, href: href, language: language,
                                                               readingProgression: progression, options: options)
                observer?(.whole(href: href, length: document.length, bytes: source.count))
                return document
            }
            let recorder = recordingCheckpoints.map { _ in HTMLConverter.CheckpointRecorder(spacing: ChapterCheckpoint.spacing) }
            let document: TextDocument
            if told {
                document = try ContentDocumentParser.parse(html: source, href: href, language: language, readingProgression: progression,
                                                           options: options, observer: nil, recorder: recorder)
            } else {
                document = try ContentDocumentParser.parse(html: source, href: href, language: language, readingProgression: progression,
                                                           options: options, firstPartLength: length, recorder: recorder) { part, _ in
                    // The whole source was read before it.
                    observer?(.firstPart(href: href, length: part.length, bytes: source.count))
                    firstPart(part)
                }
            }
            if let recorder { recordingCheckpoints?(recorder.checkpoints) }
            observer?(.whole(href: href, length: document.length, bytes: source.count))
            return document
        }
    }

    /// Reads and converts the resource of `link`, handing each block to `body` as soon as it is
    /// final and keeping none (see ``ContentDocumentParser/forEachBlock(html:href:language:readingProgression:options:_:)``):
    /// for writing a chapter out in memory that does not grow with it. Returns the rest of
    /// the document (title, links, anchors), without blocks.
    public func forEachBlock(of link: Link, _ body: (_ block: TextBlock, _ index: Int, _ images: [TextDocument.ImageReference]) -> Void)
        throws(ContentLoadError) -> TextDocument {
        try convert(link, whole: { document in
            for (index, block) in document.blocks.enumerated() {
                body(block, index, document.images.filter { $0.blockIndex == index })
            }
            var rest = document
            rest.blocks = []
            rest.images = []
            return rest
        }) { source, href, language, progression throws(ContentParseError) in
            try ContentDocumentParser.forEachBlock(html: source, href: href, language: language, readingProgression: progression,
                                                   options: options, body)
        }
    }

    /// A text resource about to be read and converted, and how.
    struct OpenedResource {
        let resource: any Resource
        let href: String
        let mediaType: MediaType?
        let language: String?
        let progression: ReadingProgression

        /// Plain text, converted as a `<pre>` of its escaped text: its bytes are not the source parsed.
        var isPlainText: Bool { mediaType?.matches(MediaType("text/plain")) ?? false }
    }

    /// Reads the resource of `link` and converts it with `parse` (given the HTML, the href, the
    /// language and the reading progression); a document made without parsing (an image's)
    /// goes through `whole`. `beforeReading` is given the resource before it is read whole: a
    /// document it returns is returned without reading it.
    func convert(_ link: Link, whole: (TextDocument) -> TextDocument = { $0 },
                 beforeReading: (OpenedResource) -> TextDocument? = { _ in nil },
                 _ parse: (Data, String, String?, ReadingProgression) throws(ContentParseError) -> TextDocument)
        throws(ContentLoadError) -> TextDocument {
        let href = Href.removingFragment(link.href)
        let mediaType = link.mediaType
            ?? (publication.readingOrder.first(withHREF: href) ?? publication.resources.first(withHREF: href))?.mediaType
            ?? Href.path(of: href).flatMap(Self.mediaType(ofPath:))
        let resource = publication.get(link)
        defer { resource.close() }
        if let mediaType, mediaType.isBitmap || mediaType.matches(MediaType("image/svg+xml")) {
            return whole(Self.imageDocument(href: href))
        }
        if let mediaType, !Self.isText(mediaType) {
            throw .notText(href: href, mediaType)
        }
        let metadata = publication.metadata
        let language = link.languages.first ?? metadata.languages.first
        let opened = OpenedResource(resource: resource, href: href, mediaType: mediaType, language: language,
                                    progression: metadata.readingProgression)
        if let document = beforeReading(opened) {
            return document
        }
        let data: Data
        switch resource.read() {
        case .success(let bytes): data = bytes
        case .failure(let error): throw .resource(href: href, error)
        }
        var source = data
        if let mediaType, mediaType.matches(MediaType("text/plain")) {
            source = Data(("<pre>" + Self.escaped(String(decoding: data, as: UTF8.self)) + "</pre>").utf8)
        }
        do {
            return try parse(source, href, language, metadata.readingProgression)
        } catch {
            throw .malformed(href: href, error)
        }
    }

    /// Reads and converts the resource at `href` (a package path or href).
    public func load(href: String) throws(ContentLoadError) -> TextDocument {
        let path = Href.removingFragment(href)
        let link = publication.readingOrder.first(withHREF: path) ?? publication.resources.first(withHREF: path) ?? Link(href: path)
        return try load(link)
    }

    /// HTML, XHTML, other XML documents (DTBook…) and plain text.
    static func isText(_ mediaType: MediaType) -> Bool {
        mediaType.isHTML || ["text/plain", "text/xml", "application/xml"].contains(mediaType.essence)
            || mediaType.structuredSyntaxSuffix == "+xml"
    }

    static func mediaType(ofPath path: String) -> MediaType? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        return MediaType.of(fileExtension: String(path[path.index(after: dot)...]).lowercased())
    }

    /// A document of one `[image: name]` line, for images in the reading order (comics).
    static func imageDocument(href: String) -> TextDocument {
        var builder = InlineTextBuilder(preformatted: false)
        let name = HTMLConverter.fileName(href) ?? "image"
        builder.append("[image: \(name)]", style: TextStyle(role: .image, linkIndex: 0))
        let text = builder.build(direction: .firstStrong(fallback: .leftToRight))
        let block = TextBlock(kind: .plain, text: text, table: nil, startIndent: 0, endIndent: 0, hangingIndent: 0,
                              spaceBefore: false, language: nil, offset: 0, length: text.count + 1)
        return TextDocument(href: href, blocks: [block], links: [LinkTarget(href: href, isExternal: false, isNoteReference: false)])
    }

    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "&": result += "&amp;"
            default: result.append(character)
            }
        }
        return result
    }
}

import CLecternXML2

/// A parsed XML or HTML document, owned by this object and freed with it.
///
/// Parsing never touches the network, never loads external DTDs and never substitutes entities
/// into the tree, so external entities and entity-expansion bombs are inert. Keep a document
/// confined to one task: libxml2 trees are not thread-safe.
public final class XMLDocument {
    let pointer: xmlDocPtr
    /// The parser still building the tree, for a document parsed incrementally; nil otherwise.
    let pushParser: HTMLPushParser?

    /// Parses `bytes` as XML, recovering from errors the way a tolerant reader should.
    ///
    /// - Parameter recover: when true, well-formedness errors are repaired where libxml2 can.
    public init(xml bytes: some Collection<UInt8>, recover: Bool = true) throws(XMLError) {
        XMLDocument.initialiseOnce
        guard bytes.count < Int(Int32.max) else { throw .tooLarge }
        var options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue
            | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue)
        if recover { options |= Int32(XML_PARSE_RECOVER.rawValue) }
        let parsed: xmlDocPtr? = withCChars(bytes) { chars in
            xmlReadMemory(chars.baseAddress, Int32(chars.count), nil, nil, options)
        }
        guard let parsed else { throw .malformed(Self.lastErrorMessage()) }
        guard xmlDocGetRootElement(parsed) != nil else {
            xmlFreeDoc(parsed)
            throw .malformed("no root element")
        }
        pointer = parsed
        pushParser = nil
    }

    /// Parses `bytes` with libxml2's HTML parser: tag soup, HTML entities and missing end tags
    /// are accepted. Used for content documents, which are often not well-formed XHTML.
    public init(html bytes: some Collection<UInt8>, encoding: String? = "UTF-8") throws(XMLError) {
        XMLDocument.initialiseOnce
        guard bytes.count < Int(Int32.max) else { throw .tooLarge }
        let options = Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue
            | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue)
        let parsed: htmlDocPtr? = withCChars(bytes) { chars in
            htmlReadMemory(chars.baseAddress, Int32(chars.count), nil, encoding, options)
        }
        guard let parsed, xmlDocGetRootElement(parsed) != nil else {
            if let parsed { xmlFreeDoc(parsed) }
            throw .malformed(Self.lastErrorMessage())
        }
        pointer = parsed
        pushParser = nil
    }

    /// Owns a tree built in this module (``XMLStreamReader/copyOfCurrentElement()``).
    init(adopting pointer: xmlDocPtr) {
        self.pointer = pointer
        pushParser = nil
    }

    private init(pointer: xmlDocPtr, pushParser: HTMLPushParser) {
        self.pointer = pointer
        self.pushParser = pushParser
    }

    /// Parses `bytes` with libxml2's HTML parser as `body` walks the document, instead of whole
    /// before it: the tree holds what has been parsed and not yet released, not the document.
    ///
    /// The elements `body` is handed see the same tree the whole-document parser builds:
    /// walking children (``XMLElement/forEachChildNode(releasingVisited:_:)``) parses on as far
    /// as it needs, and asking for an element's whole content (``XMLElement/children``,
    /// ``XMLElement/textContent``…) parses to its end first. Elements must not be kept past
    /// `body`, nor a child past the walk that released it.
    public static func parsingHTMLIncrementally<R>(_ bytes: some Collection<UInt8>, encoding: String? = "UTF-8",
                                                   _ body: (XMLDocument) -> R) throws(XMLError) -> R {
        XMLDocument.initialiseOnce
        guard bytes.count < Int(Int32.max) else { throw .tooLarge }
        let result: Result<R, XMLError> = withCChars(bytes) { chars in
            guard let parser = HTMLPushParser(bytes: chars, encoding: encoding) else {
                return .failure(.malformed("no parser"))
            }
            while parser.document.map({ xmlDocGetRootElement($0) == nil }) ?? true, parser.advance() {}
            guard let pointer = parser.document, xmlDocGetRootElement(pointer) != nil else {
                if let pointer = parser.document { xmlFreeDoc(pointer) }
                return .failure(.malformed(Self.lastErrorMessage()))
            }
            let document = XMLDocument(pointer: pointer, pushParser: parser)
            let result = body(document)
            // The bytes are only valid here: whatever is left is parsed before they go.
            parser.finish()
            return .success(result)
        }
        return try result.get()
    }

    deinit { xmlFreeDoc(pointer) }

    /// How many bytes of the source an incremental parse has handed to libxml2 so far (all of
    /// them for a document parsed whole): what a conversion has read to get where it is.
    public var bytesParsed: Int? { pushParser?.position }

    /// The root element.
    public var root: XMLElement {
        XMLElement(node: xmlDocGetRootElement(pointer)!, document: self)
    }

    static let initialiseOnce: Void = { xmlInitParser() }()

    private static func lastErrorMessage() -> String {
        guard let error = xmlGetLastError(), let message = error.pointee.message else {
            return "not a well-formed document"
        }
        let text = String(cString: message).trimmingWhitespace
        xmlResetLastError()
        return error.pointee.line > 0 ? "line \(error.pointee.line): \(text)" : text
    }
}

/// Why a document could not be parsed.
public enum XMLError: Error, Sendable, Equatable, CustomStringConvertible {
    case malformed(String)
    case tooLarge

    public var description: String {
        switch self {
        case .malformed(let reason): "malformed XML (\(reason))"
        case .tooLarge: "document too large"
        }
    }
}

/// Calls `body` with the bytes as C characters, without copying when they are contiguous.
func withCChars<R>(_ bytes: some Collection<UInt8>, _ body: (UnsafeBufferPointer<CChar>) -> R) -> R {
    if let result = bytes.withContiguousStorageIfAvailable({ buffer in
        buffer.withMemoryRebound(to: CChar.self, body)
    }) {
        return result
    }
    return Array(bytes).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self, body) }
}

extension String {
    var trimmingWhitespace: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}

import CLecternXML2

/// Reads a well-formed XML document element after element (libxml2's `xmlTextReader`)
/// without keeping its tree: what has been read is freed as the reader moves on, so a
/// document of thousands of elements costs a few of them in memory. Strict: any
/// well-formedness error ends the reading and sets ``isMalformed``; a tolerant reader then
/// parses the document whole (``XMLDocument/init(xml:recover:)``), which repairs what it can.
///
/// Same safety as ``XMLDocument``: no network, no external DTD, no entity substitution.
public final class XMLStreamReader {
    private let reader: xmlTextReaderPtr
    private var failed = false

    private init(reader: xmlTextReaderPtr) {
        self.reader = reader
    }

    /// Runs `body` with a reader of `bytes`, which stay valid only during it.
    public static func reading<R>(_ bytes: some Collection<UInt8>, _ body: (XMLStreamReader) -> R) throws(XMLError) -> R {
        XMLDocument.initialiseOnce
        guard bytes.count < Int(Int32.max) else { throw .tooLarge }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue
            | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue)
        let result: Result<R, XMLError> = withCChars(bytes) { chars in
            guard let pointer = xmlReaderForMemory(chars.baseAddress, Int32(chars.count), nil, nil, options) else {
                return .failure(.malformed("no reader"))
            }
            let reader = XMLStreamReader(reader: pointer)
            defer { xmlFreeTextReader(pointer) }
            xmlTextReaderSetStructuredErrorHandler(pointer, { context, error in
                guard let context, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
                Unmanaged<XMLStreamReader>.fromOpaque(context).takeUnretainedValue().failed = true
            }, Unmanaged.passUnretained(reader).toOpaque())
            return .success(body(reader))
        }
        return try result.get()
    }

    /// Whether the document was found not well-formed (what was read before may be partial).
    public var isMalformed: Bool { failed }

    /// Moves to the next element's start tag, in document order; false at the end of the
    /// document or at an error.
    public func nextElement() -> Bool {
        while !failed {
            let status = xmlTextReaderRead(reader)
            guard status == 1 else {
                if status < 0 { failed = true }
                return false
            }
            if xmlTextReaderNodeType(reader) == Int32(XML_READER_TYPE_ELEMENT.rawValue) { return true }
        }
        return false
    }

    /// The depth of the current element: 0 for the root.
    public var depth: Int { Int(xmlTextReaderDepth(reader)) }

    /// The local name of the current element, without prefix.
    public var localName: String {
        xmlTextReaderConstLocalName(reader).map { String(cString: $0) } ?? ""
    }

    /// The value of the current element's attribute without namespace, as
    /// ``XMLElement/attribute(_:namespace:)`` reads it; a prefixed name (`xml:lang`) is
    /// looked up in the namespace its prefix has there.
    public func attribute(_ name: String) -> String? {
        guard let value = xmlTextReaderGetAttribute(reader, name) else { return nil }
        defer { lectern_xmlFree(value) }
        return String(cString: value)
    }

    /// The value of the current element's attribute in `namespace`, whatever its prefix.
    public func attribute(_ name: String, namespace: String) -> String? {
        guard let value = xmlTextReaderGetAttributeNs(reader, name, namespace) else { return nil }
        defer { lectern_xmlFree(value) }
        return String(cString: value)
    }

    /// The current element with all its content, as a document of its own under a copy of its
    /// parent's start tag (attributes and namespace declarations, so that names, languages and
    /// the document's internal entities read as in the whole document). Reading then goes on
    /// inside the element.
    public func copyOfCurrentElement() -> XMLDocument? {
        guard let node = xmlTextReaderExpand(reader), let parent = node.pointee.parent,
              parent.pointee.type == XML_ELEMENT_NODE, let copy = xmlNewDoc("1.0") else { return nil }
        let document = XMLDocument(adopting: copy)
        if let subset = node.pointee.doc?.pointee.intSubset, let dtd = xmlCopyDtd(subset) {
            copy.pointee.intSubset = dtd
            xmlAddChild(UnsafeMutableRawPointer(copy).assumingMemoryBound(to: xmlNode.self),
                        UnsafeMutableRawPointer(dtd).assumingMemoryBound(to: xmlNode.self))
        }
        guard let root = xmlDocCopyNode(parent, copy, 2) else { return nil }
        xmlDocSetRootElement(copy, root)
        guard let element = xmlDocCopyNode(node, copy, 1) else { return nil }
        xmlAddChild(root, element)
        return document
    }
}

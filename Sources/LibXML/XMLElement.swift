import CLecternXML2

/// An element of an ``XMLDocument``. It keeps its document alive.
public struct XMLElement {
    let node: xmlNodePtr
    /// Retained so that the tree outlives every element handed out.
    let document: XMLDocument

    init(node: xmlNodePtr, document: XMLDocument) {
        self.node = node
        self.document = document
    }

    /// The local name, without prefix.
    public var localName: String { String(cString: node.pointee.name) }

    /// The namespace URI, or nil when the element has none.
    public var namespaceURI: String? {
        guard let ns = node.pointee.ns, let href = ns.pointee.href else { return nil }
        return String(cString: href)
    }

    /// Whether this element has the given local name and (when given) namespace.
    public func isNamed(_ name: String, namespace: String? = nil) -> Bool {
        guard xmlStrEqual(node.pointee.name, name) != 0 else { return false }
        guard let namespace else { return true }
        return namespaceURI == namespace
    }

    /// The child elements, in document order.
    public var children: [XMLElement] {
        parseToEnd()
        var result: [XMLElement] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE {
                result.append(XMLElement(node: current, document: document))
            }
            child = current.pointee.next
        }
        return result
    }

    /// The child elements with this local name (and namespace, when given).
    public func children(named name: String, namespace: String? = nil) -> [XMLElement] {
        children.filter { $0.isNamed(name, namespace: namespace) }
    }

    /// The first child element with this local name (and namespace, when given).
    public func firstChild(named name: String, namespace: String? = nil) -> XMLElement? {
        firstChild { $0.isNamed(name, namespace: namespace) }
    }

    /// The first child element that satisfies `predicate`; in a document parsed incrementally,
    /// parsed only as far as that child.
    public func firstChild(where predicate: (XMLElement) -> Bool) -> XMLElement? {
        var cursor = ChildCursor(parent: node, parser: document.pushParser)
        while let current = cursor.next() {
            if current.pointee.type == XML_ELEMENT_NODE {
                let element = XMLElement(node: current, document: document)
                if predicate(element) { return element }
            }
        }
        return nil
    }

    /// Every descendant element with this local name (and namespace), in document order.
    public func descendants(named name: String, namespace: String? = nil) -> [XMLElement] {
        var result: [XMLElement] = []
        func visit(_ element: XMLElement) {
            for child in element.children {
                if child.isNamed(name, namespace: namespace) { result.append(child) }
                visit(child)
            }
        }
        visit(self)
        return result
    }

    /// The parent element, if any.
    public var parent: XMLElement? {
        guard let parent = node.pointee.parent, parent.pointee.type == XML_ELEMENT_NODE else { return nil }
        return XMLElement(node: parent, document: document)
    }

    /// The value of an attribute without namespace (`namespace == nil`) or in the given namespace.
    public func attribute(_ name: String, namespace: String? = nil) -> String? {
        let value: UnsafeMutablePointer<xmlChar>? =
            if let namespace { xmlGetNsProp(node, name, namespace) } else { xmlGetNoNsProp(node, name) }
        guard let value else { return nil }
        defer { lectern_xmlFree(value) }
        return String(cString: value)
    }

    /// The value of an attribute matched by local name only, whatever its namespace; useful for
    /// vocabularies whose documents disagree on prefixes (e.g. `opf:role` vs `role`).
    public func attribute(localName name: String) -> String? {
        var attribute = node.pointee.properties
        while let current = attribute {
            if xmlStrEqual(current.pointee.name, name) != 0,
               let value = xmlNodeListGetString(node.pointee.doc, current.pointee.children, 1) {
                defer { lectern_xmlFree(value) }
                return String(cString: value)
            }
            attribute = current.pointee.next
        }
        return nil
    }

    /// Every attribute as (namespace, local name, value).
    public var attributes: [(namespace: String?, name: String, value: String)] {
        var result: [(String?, String, String)] = []
        var attribute = node.pointee.properties
        while let current = attribute {
            let name = String(cString: current.pointee.name)
            let ns = current.pointee.ns.flatMap { $0.pointee.href.map { String(cString: $0) } }
            var value = ""
            if let raw = xmlNodeListGetString(node.pointee.doc, current.pointee.children, 1) {
                value = String(cString: raw)
                lectern_xmlFree(raw)
            }
            result.append((ns, name, value))
            attribute = current.pointee.next
        }
        return result
    }

    /// The concatenated text of this element and its descendants.
    ///
    /// Entity references are not expanded (a document cannot inflate itself through entities);
    /// libxml2 has already replaced the predefined and character references.
    public var textContent: String {
        parseToEnd()
        var bytes: [UInt8] = []
        func visit(_ first: xmlNodePtr?) {
            var child = first
            while let current = child {
                switch current.pointee.type {
                case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                    if let content = current.pointee.content {
                        var index = 0
                        while content[index] != 0 { bytes.append(content[index]); index += 1 }
                    }
                case XML_ELEMENT_NODE:
                    visit(current.pointee.children)
                default:
                    break
                }
                child = current.pointee.next
            }
        }
        visit(node.pointee.children)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The text content with runs of XML whitespace collapsed to single spaces and trimmed.
    public var normalizedText: String {
        textContent.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
            .joined(separator: " ")
    }

    /// Walks the direct children, elements and text, in document order; the layout engine uses it.
    ///
    /// In a document parsed incrementally, the walk parses on as it reaches the end of what is
    /// parsed, and with `releasingVisited` frees each child once it has been visited and the
    /// next one is parsed, so that the tree never holds what has been walked (the last child
    /// stays: libxml2 appends text to it). Children handed to `body` must not be kept then.
    public func forEachChildNode(releasingVisited: Bool = false, _ body: (XMLChildNode) -> Void) {
        var cursor = ChildCursor(parent: node, parser: document.pushParser)
        var visited: xmlNodePtr?
        while let current = cursor.next() {
            if releasingVisited, document.pushParser != nil, let done = visited {
                cursor.release(done)
            }
            visited = current
            switch current.pointee.type {
            case XML_ELEMENT_NODE:
                body(.element(XMLElement(node: current, document: document)))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content { body(.text(String(cString: content))) }
            default:
                break
            }
        }
    }

    /// In a document parsed incrementally, parses on to the end of this element.
    private func parseToEnd() {
        guard let parser = document.pushParser else { return }
        while parser.isOpen(node), parser.advance() {}
    }

    /// The offset in the source bytes of this element's start tag, for `<body>`, its child
    /// elements and those of plain wrappers in it (`<section>`, `<div>`, two deep) in a
    /// document parsed incrementally (nil for others, and when the parser converted the
    /// source's encoding): where a conversion of a later part may start.
    public var sourceOffset: Int? {
        guard let value = node.pointee._private else { return nil }
        return Int(bitPattern: value) - 1
    }

    /// The line of the element in its source, for messages.
    public var line: Int { Int(xmlGetLineNo(node)) }
}

/// The children of an element one after the other, parsing on when the parser has not reached
/// the next one yet.
struct ChildCursor {
    let parent: xmlNodePtr
    let parser: HTMLPushParser?
    private var current: xmlNodePtr?
    private var started = false

    init(parent: xmlNodePtr, parser: HTMLPushParser?) {
        self.parent = parent
        self.parser = parser
    }

    /// The next child, complete as far as a text goes (libxml2 appends to the last text child
    /// of an open element as it parses on), or nil after the last.
    mutating func next() -> xmlNodePtr? {
        while true {
            let candidate = started ? current?.pointee.next : parent.pointee.children
            if let candidate {
                let isText = candidate.pointee.type == XML_TEXT_NODE || candidate.pointee.type == XML_CDATA_SECTION_NODE
                if isText, candidate.pointee.next == nil, let parser, parser.isOpen(parent), parser.advance() { continue }
                started = true
                current = candidate
                return candidate
            }
            guard let parser, parser.isOpen(parent), parser.advance() else {
                if started { current = nil }
                return nil
            }
        }
    }

    /// Frees `node`, a child visited before the current one.
    func release(_ node: xmlNodePtr) {
        xmlUnlinkNode(node)
        xmlFreeNode(node)
    }
}

/// A child of an element: another element or a run of text.
public enum XMLChildNode {
    case element(XMLElement)
    case text(String)
}

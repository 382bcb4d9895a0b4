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
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE {
                let element = XMLElement(node: current, document: document)
                if element.isNamed(name, namespace: namespace) { return element }
            }
            child = current.pointee.next
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
    public func forEachChildNode(_ body: (XMLChildNode) -> Void) {
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE:
                body(.element(XMLElement(node: current, document: document)))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content { body(.text(String(cString: content))) }
            default:
                break
            }
            child = current.pointee.next
        }
    }

    /// The line of the element in its source, for messages.
    public var line: Int { Int(xmlGetLineNo(node)) }
}

/// A child of an element: another element or a run of text.
public enum XMLChildNode {
    case element(XMLElement)
    case text(String)
}

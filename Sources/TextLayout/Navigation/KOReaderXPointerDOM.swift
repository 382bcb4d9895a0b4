import LibXML

/// A chapter's `<body>` as crengine's DOM holds it, as far as XPointers see it: element names,
/// the text nodes crengine keeps, and their text normalised the way crengine stores it (see
/// the conventions in ``KOReaderXPointer``).
///
/// Built from libxml2's HTML tree of the same bytes the converter reads, so that for a
/// well-formed XHTML chapter both parsers agree on elements and text nodes. What is not seen:
/// a book's CSS (`display`, `white-space` set by a stylesheet), so "block" and "pre" are those
/// of HTML's defaults; and crengine's splitting of a text node longer than 8,192 characters.
struct KOReaderDOM: Sendable {
    struct Node: Sendable {
        /// The parent's index; -1 for `<body>`.
        var parent: Int32
        /// The lowercased local name; nil for a text node.
        var name: String?
        var children: [Int32] = []
        /// The node's text: `scalars[start..<end]` (for an element, that of its descendants).
        var start: Int
        var end: Int
    }

    /// `nodes[0]` is the chapter's `<body>` (or an empty stand-in when it has none).
    private(set) var nodes: [Node] = []
    /// Every kept text node's normalised text, in document order.
    private(set) var scalars: [Unicode.Scalar] = []
    /// The indices of the text nodes, in document order (so by `start`).
    private(set) var textNodes: [Int32] = []

    /// Elements whose default display is not inline (crengine's `_isBlock`).
    static let blockElements: Set<String> = [
        "address", "article", "aside", "blockquote", "body", "caption", "center", "col", "colgroup", "dd", "details",
        "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4",
        "h5", "h6", "header", "hgroup", "hr", "li", "listing", "main", "menu", "nav", "ol", "p", "plaintext", "pre",
        "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul", "xmp",
    ]
    /// Elements whose text keeps its white space (`white-space: pre` by default).
    static let preformattedElements: Set<String> = ["pre", "listing", "xmp", "plaintext", "textarea"]

    /// The DOM of `bytes`, an XHTML or HTML chapter; an empty `<body>` when it cannot be parsed.
    init(html bytes: some Collection<UInt8>) {
        nodes = [Node(parent: -1, name: "body", start: 0, end: 0)]
        guard let document = Self.parse(bytes), let body = Self.body(of: document.root) else { return }
        build(body, index: 0, preformatted: false)
    }

    private static func parse(_ bytes: some Collection<UInt8>) -> XMLDocument? {
        let array = Array(bytes)
        // The same preparation the converter makes, so that both see the same tree.
        let prepared = array.withUnsafeBufferPointer { buffer -> [UInt8]? in
            guard let withoutSubset = DoctypeSubsetRemover.removed(buffer) else { return NestingFlattener.flattened(buffer) }
            return withoutSubset.withUnsafeBufferPointer { NestingFlattener.flattened($0) } ?? withoutSubset
        } ?? array
        if let document = try? XMLDocument(html: prepared, encoding: CharsetSniffer.encoding(of: prepared)) { return document }
        return try? XMLDocument(html: prepared, encoding: "UTF-8")
    }

    private static func body(of root: XMLElement) -> XMLElement? {
        if root.localName.lowercased() == "body" { return root }
        return root.firstChild { $0.localName.lowercased() == "body" }
    }

    /// Adds the children of `element` (already `nodes[index]`), depth first. libxml2 nests at
    /// most 256 levels, so the recursion is bounded.
    private mutating func build(_ element: XMLElement, index: Int, preformatted: Bool) {
        let name = nodes[index].name ?? ""
        let isBlock = Self.blockElements.contains(name)
        var children: [XMLChildNode] = []
        element.forEachChildNode { children.append($0) }
        let kept = Self.keptChildren(children, isBlock: isBlock, preformatted: preformatted)
        nodes[index].start = scalars.count
        for child in kept {
            let childIndex = Int32(nodes.count)
            switch child {
            case .element(let childElement):
                let childName = Self.localName(childElement)
                nodes.append(Node(parent: Int32(index), name: childName, start: scalars.count, end: scalars.count))
                nodes[index].children.append(childIndex)
                build(childElement, index: Int(childIndex),
                      preformatted: preformatted || Self.preformattedElements.contains(childName))
            case .text(let normalised):
                let start = scalars.count
                scalars.append(contentsOf: normalised)
                nodes.append(Node(parent: Int32(index), name: nil, start: start, end: scalars.count))
                nodes[index].children.append(childIndex)
                textNodes.append(childIndex)
            }
        }
        nodes[index].end = scalars.count
    }

    private enum Child {
        case element(XMLElement)
        case text([Unicode.Scalar])
    }

    /// The children crengine keeps, their text normalised: a leading white-space text node of
    /// a block is dropped when parsed; in an element with a block child, the white-space text
    /// nodes at either end of each run of inline content are dropped when autoboxed.
    private static func keptChildren(_ children: [XMLChildNode], isBlock: Bool, preformatted: Bool) -> [Child] {
        var result: [Child] = []
        for child in children {
            switch child {
            case .element(let element):
                result.append(.element(element))
            case .text(let text):
                let normalised = normalise(text, preformatted: preformatted)
                if normalised.isEmpty { continue }
                if isBlock, result.isEmpty, !preformatted, isBlank(normalised) { continue }
                result.append(.text(normalised))
            }
        }
        guard !preformatted, result.contains(where: { if case .element(let e) = $0 { isBlockElement(e) } else { false } }) else {
            return result
        }
        var kept: [Child] = []
        var run: [Child] = []
        func flushRun() {
            while let first = run.first, case .text(let text) = first, isBlank(text) { run.removeFirst() }
            while let last = run.last, case .text(let text) = last, isBlank(text) { run.removeLast() }
            kept.append(contentsOf: run)
            run.removeAll()
        }
        for child in result {
            if case .element(let element) = child, isBlockElement(element) {
                flushRun()
                kept.append(child)
            } else {
                run.append(child)
            }
        }
        flushRun()
        return kept
    }

    private static func isBlockElement(_ element: XMLElement) -> Bool {
        blockElements.contains(localName(element))
    }

    static func localName(_ element: XMLElement) -> String {
        let name = element.localName.lowercased()
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }

    private static func isBlank(_ text: [Unicode.Scalar]) -> Bool {
        text.allSatisfy { $0 == " " || $0 == "\n" }
    }

    /// A text node's text as crengine stores it: CR, LF and tab as spaces, runs of spaces as
    /// one; in preformatted text, CR LF as LF and tabs expanded to multiples of 8.
    static func normalise(_ text: String, preformatted: Bool) -> [Unicode.Scalar] {
        var result: [Unicode.Scalar] = []
        result.reserveCapacity(text.unicodeScalars.count)
        if preformatted {
            var column = 0
            var previous: Unicode.Scalar?
            for scalar in text.unicodeScalars {
                defer { previous = scalar }
                switch scalar {
                case "\r":
                    result.append("\n")
                    column = 0
                case "\n":
                    if previous != "\r" { result.append("\n") }
                    column = 0
                case "\t":
                    let spaces = 8 - column % 8
                    result.append(contentsOf: repeatElement(" ", count: spaces))
                    column += spaces
                default:
                    result.append(scalar)
                    column += 1
                }
            }
            return result
        }
        for scalar in text.unicodeScalars {
            let isSpace = scalar == " " || scalar == "\n" || scalar == "\r" || scalar == "\t"
            if isSpace {
                if result.last != " " { result.append(" ") }
            } else {
                result.append(scalar)
            }
        }
        return result
    }

    /// The index in ``textNodes`` of the text node holding scalar `position` (the last one
    /// starting at or before it).
    func textNodeSlot(containing position: Int) -> Int? {
        guard !textNodes.isEmpty else { return nil }
        var low = 0, high = textNodes.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if nodes[Int(textNodes[middle])].start <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }
}

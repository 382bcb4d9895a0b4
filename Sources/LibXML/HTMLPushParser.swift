import CLecternXML2

/// libxml2's HTML push parser, fed a slice of the document at a time on demand.
///
/// The tree it builds only grows as far as someone has asked: an ``XMLDocument`` parsed
/// incrementally (``XMLDocument/parsingHTMLIncrementally(_:encoding:_:)``) calls ``advance()``
/// when a walk reaches the end of what has been parsed. Same options as the whole-document HTML
/// parser: recovering, no network, no error output; the HTML parser loads no DTD and expands no
/// external entity, and libxml2 refuses nesting deeper than 256 elements.
final class HTMLPushParser {
    /// Bytes handed to libxml2 at a time: small enough that the unparsed rest is never in the
    /// tree, large enough that the per-call cost vanishes.
    static let sliceSize = 64 * 1024

    private let context: htmlParserCtxtPtr
    private var bytes: UnsafeBufferPointer<CChar>
    /// The bytes handed to libxml2 so far: how much of the source the tree may hold.
    private(set) var position = 0
    /// Whether libxml2 has been told the document ended.
    private(set) var isFinished = false

    init?(bytes: UnsafeBufferPointer<CChar>, encoding: String?) {
        guard let context = htmlCreatePushParserCtxt(nil, nil, nil, 0, nil, XML_CHAR_ENCODING_NONE) else { return nil }
        self.context = context
        self.bytes = bytes
        _ = htmlCtxtUseOptions(context, Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue
            | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue))
        if let encoding, let handler = xmlFindCharEncodingHandler(encoding) {
            _ = xmlSwitchToEncoding(context, handler)
        }
        context.pointee.sax.pointee.startElement = recordingStartElement
    }

    deinit {
        // The document belongs to the XMLDocument; the context does not free it.
        htmlFreeParserCtxt(context)
    }

    /// The document being built, once the parser has started one.
    var document: xmlDocPtr? { context.pointee.myDoc }

    /// Parses the next slice (or ends the document after the last one); false once finished.
    @discardableResult
    func advance() -> Bool {
        guard !isFinished else { return false }
        let count = min(Self.sliceSize, bytes.count - position)
        if count > 0 {
            _ = htmlParseChunk(context, bytes.baseAddress! + position, Int32(count), 0)
            position += count
        } else {
            _ = htmlParseChunk(context, nil, 0, 1)
            isFinished = true
            bytes = UnsafeBufferPointer(start: nil, count: 0)
        }
        return true
    }

    /// Parses the rest of the document.
    func finish() {
        while advance() {}
    }

    /// Whether `node` is an element whose end has not been parsed yet.
    func isOpen(_ node: xmlNodePtr) -> Bool {
        guard !isFinished, let open = context.pointee.nodeTab else { return false }
        for index in 0..<Int(context.pointee.nodeNr) where open[index] == node { return true }
        return false
    }
}

/// Whether `element` is `<body>`, or a plain wrapper (`<section>`, `<div>`, `<article>`,
/// `<main>`) in it, at most `wrappers` deep: the elements whose children may be checkpoints.
private func isInsideBody(_ element: xmlNodePtr, wrappers: Int) -> Bool {
    if xmlStrEqual(element.pointee.name, "body") != 0 { return true }
    let name = element.pointee.name
    guard wrappers > 0, xmlStrEqual(name, "section") != 0 || xmlStrEqual(name, "div") != 0 || xmlStrEqual(name, "article") != 0
            || xmlStrEqual(name, "main") != 0,
          let parent = element.pointee.parent, parent.pointee.type == XML_ELEMENT_NODE else { return false }
    return isInsideBody(parent, wrappers: wrappers - 1)
}

/// libxml2's own start-element handler, then, for `<body>`, its children and its wrappers'
/// children, the offset in the
/// source of the start tag's `<` kept in the node's `_private` (plus one: nil means unknown):
/// where a later conversion may start over from (``XMLElement/sourceOffset``). Only these
/// shallow elements: finding the offset scans back over the tag, too costly for every element.
private let recordingStartElement: startElementSAXFunc = { userData, name, attributes in
    xmlSAX2StartElement(userData, name, attributes)
    guard let userData else { return }
    let context = userData.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let node = context.pointee.node, let parent = node.pointee.parent, parent.pointee.type == XML_ELEMENT_NODE,
          xmlStrEqual(node.pointee.name, "body") != 0 || isInsideBody(parent, wrappers: 2),
          let input = context.pointee.input, let base = input.pointee.base, let cur = input.pointee.cur,
          input.pointee.buf?.pointee.encoder.map({ xmlStrcasecmp($0.pointee.name, "UTF-8") == 0 }) ?? true else { return }
    // UTF-8 (unconverted, or copied as it is): the buffer holds the source bytes themselves, so
    // the tag's `<` is found by scanning back from where the parser stands (at its `>`).
    var position = cur
    while position > base, position.pointee != UInt8(ascii: "<") { position -= 1 }
    guard position.pointee == UInt8(ascii: "<") else { return }
    let offset = Int(input.pointee.consumed) + (position - base)
    node.pointee._private = UnsafeMutableRawPointer(bitPattern: offset + 1)
}

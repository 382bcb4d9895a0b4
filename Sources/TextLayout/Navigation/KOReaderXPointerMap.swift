/// Converts between places of one chapter in Lectern's terms (offsets of its
/// ``TextDocument``, see ``TextDocument/plainText``) and KOReader's XPointers
/// (``KOReaderXPointer``).
///
/// Made from the chapter's resource bytes and the document Lectern converted from them:
///
/// ```swift
/// let spine = KOReaderSpine(publication: publication)       // DocFragment numbering
/// let (document, map) = try loader.koreaderXPointerMap(for: link)
/// let pointer = map.xpointer(at: offset, fragment: spine.fragment(of: link)!, fragmentCount: spine.paths.count)
/// let back = map.offset(of: pointer!)                        // the same character
/// ```
///
/// The fragment is not a reading order index: see ``KOReaderSpine``.
///
/// The conversion is kept apart from the converter, which stays as fast as it was when no
/// XPointer is asked for: the chapter is parsed a second time by libxml2 into crengine's view
/// of its DOM (``KOReaderDOM``) and the two texts are paired character by character
/// (``KOReaderXPointerAlignment``). Building a map costs about one more conversion of the
/// chapter; make one per chapter when a place is synced, not per page.
///
/// ## Places that are not a character of the book's text
///
/// Lectern's white space (collapsed spaces, line and block separators) and generated text
/// (list markers, `[image: …]`, quotation marks of `<q>`) have no DOM character: their
/// XPointer is that of the next character of the book's text, which is where they resolve
/// back — the start of the next word. Likewise a KOReader XPointer on a space, or on text
/// Lectern does not show (a hidden element), resolves to the next character Lectern shows.
public struct KOReaderXPointerMap: Sendable {
    let dom: KOReaderDOM
    let alignment: KOReaderXPointerAlignment
    /// The document's length: offsets past it are refused.
    public let length: Int

    /// The map of a chapter: `html` is the resource's bytes, `document` what Lectern made of
    /// them (``ContentDocumentParser`` or ``ContentDocumentLoader``).
    public init(html: some Collection<UInt8>, document: TextDocument) {
        dom = KOReaderDOM(html: html)
        alignment = KOReaderXPointerAlignment(document: document, dom: dom)
        length = document.length
    }

    /// KOReader's XPointer for `offset` (an offset of the document, 0 ..< ``length``), in the
    /// chapter `fragment` (its 1-based spine index). With `fragmentCount` 1 the `DocFragment`
    /// is written without an index, as KOReader does for a one-chapter book. Nil when the
    /// offset is out of range or the chapter has no text node at all.
    public func xpointer(at offset: Int, fragment: Int, fragmentCount: Int? = nil) -> KOReaderXPointer? {
        guard offset >= 0, offset <= length, fragment >= 1, let lastText = dom.textNodes.last else { return nil }
        let position: Int
        if alignment.nextSource[offset] >= 0 {
            position = Int(alignment.nextSource[offset])
        } else {
            // After the last character shown: the end of the last text node.
            position = dom.nodes[Int(lastText)].end
        }
        guard let slot = dom.textNodeSlot(containing: position) else { return nil }
        let textNode = Int(dom.textNodes[slot])
        let node = dom.nodes[textNode]
        let textIndex = siblingIndex(of: textNode)
        var steps: [KOReaderXPointer.Step] = []
        var current = Int(node.parent)
        while current > 0 {
            let index = siblingIndex(of: current)
            steps.append(KOReaderXPointer.Step(name: dom.nodes[current].name ?? "", index: index))
            current = Int(dom.nodes[current].parent)
        }
        return KOReaderXPointer(fragment: fragment, steps: steps.reversed(),
                                target: .text(index: textIndex, offset: min(position, node.end) - node.start),
                                fragmentIndexOmitted: fragmentCount == 1)
    }

    /// The offset of the document `pointer` names, or nil when it does not resolve in this
    /// chapter: a step names no element, a text index or offset is past the end. The fragment
    /// is not checked: the caller picked the chapter from it.
    public func offset(of pointer: KOReaderXPointer) -> Int? {
        guard let position = position(of: pointer) else { return nil }
        let found = alignment.nextOffset[position]
        return found >= 0 ? Int(found) : max(0, length - 1)
    }

    /// The DOM text position (an index of ``KOReaderDOM/scalars``) `pointer` names.
    func position(of pointer: KOReaderXPointer) -> Int? {
        var current = 0
        for step in pointer.steps {
            let name = Self.localName(step.name)
            if Self.boxingElements.contains(name) { continue }
            guard let child = child(of: current, { dom.nodes[Int($0)].name == name }, number: step.index ?? 1) else { return nil }
            current = child
        }
        switch pointer.target {
        case .text(let index, let offset):
            guard let text = child(of: current, { dom.nodes[Int($0)].name == nil }, number: index ?? 1) else { return nil }
            let node = dom.nodes[text]
            guard offset <= node.end - node.start else { return nil }
            return node.start + offset
        case .element(let childOffset):
            let node = dom.nodes[current]
            if let childOffset {
                guard childOffset <= node.children.count else { return nil }
                return childOffset < node.children.count ? dom.nodes[Int(node.children[childOffset])].start : node.end
            }
            return node.start
        }
    }

    /// The `number`-th (1-based) child of `parent` that `matches`.
    private func child(of parent: Int, _ matches: (Int32) -> Bool, number: Int) -> Int? {
        var seen = 0
        for child in dom.nodes[parent].children where matches(child) {
            seen += 1
            if seen == number { return Int(child) }
        }
        return nil
    }

    /// The 1-based index of `node` among its same-name (or text) siblings; nil when it is the
    /// only one, as crengine's `toStringV2` writes it.
    private func siblingIndex(of node: Int) -> Int? {
        let name = dom.nodes[node].name
        let parent = Int(dom.nodes[node].parent)
        var count = 0, index = 0
        for sibling in dom.nodes[parent].children where dom.nodes[Int(sibling)].name == name {
            count += 1
            if Int(sibling) == node { index = count }
        }
        return count > 1 ? index : nil
    }

    private static func localName(_ name: String) -> String {
        let lowered = name.lowercased()
        guard let colon = lowered.lastIndex(of: ":") else { return lowered }
        return String(lowered[lowered.index(after: colon)...])
    }

    /// Elements crengine inserts for rendering, named by older (`toStringV1`) pointers only.
    static let boxingElements: Set<String> = ["autoboxing", "floatbox", "inlinebox", "tabularbox", "rubybox", "pseudoelem"]
}

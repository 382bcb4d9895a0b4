import LibXML
import Shared

/// Block building: paragraphs and containers, the block being filled, and the anchors
/// (element ids) that point into blocks.
extension HTMLConverter {
    // MARK: - Blocks

    /// An element that is one block of text (`<p>`, `<h2>`, `<pre>`…).
    func blockElement(_ element: XMLElement, _ attributes: Attributes, _ kind: TextBlock.Kind, _ context: Context, depth: Int) {
        var context = context
        if let direction = DirectionAttribute(attributes["dir"]) { context.direction = direction }
        startBlock(kind, context, attributes)
        let first = blockCount
        if let id = attributes["id"] { recordAnchor(id) }
        walkChildren(element, context, depth: depth)
        flushBlock()
        if let id = attributes["id"] { closeAnchor(id, from: first) }
    }

    /// An element that holds blocks (`<div>`, `<section>`, `<blockquote>`…).
    func container(_ element: XMLElement, _ attributes: Attributes, _ context: Context, depth: Int, spacing: Bool) {
        var context = context
        if let direction = DirectionAttribute(attributes["dir"]) { context.direction = direction }
        flushBlock()
        if spacing { spacePending = true }
        withAnchor(attributes) {
            walkChildren(element, context, depth: depth)
            flushBlock()
        }
        if spacing { spacePending = true }
    }

    // MARK: - Block bookkeeping

    func startBlock(_ kind: TextBlock.Kind, _ context: Context, _ attributes: Attributes?) {
        flushBlock()
        var kind = kind
        var builder = InlineTextBuilder(preformatted: context.preformatted)
        builderContext = context
        builderStartIndent = context.startIndent
        builderHanging = 0
        if let marker = pendingMarker {
            var markerStyle = context.style
            markerStyle.role = .listMarker
            markerStyle.linkIndex = nil
            builder.appendMarker(marker.text, width: marker.width, style: markerStyle)
            builderStartIndent = marker.startIndent
            builderHanging = marker.width
            if kind == .plain || kind == .paragraph { kind = .listItem }
            pendingMarker = nil
        }
        builderKind = kind
        self.builder = builder
    }

    func flushBlock() {
        guard var builder else { return }
        self.builder = nil
        if builderKind == .preformatted { builder.dropLeadingNewline() }
        builder.trimEnd()
        guard !builder.isEmpty else { return }
        let text = builder.build(direction: blockDirection(for: builderContext, nil))
        appendBlock(TextBlock(kind: builderKind, text: text, table: nil, startIndent: builderStartIndent,
                              endIndent: builderContext.endIndent, hangingIndent: builderHanging,
                              spaceBefore: spacePending, language: builderContext.language,
                              offset: offset, length: text.count + 1))
    }

    func appendBlock(_ block: TextBlock) {
        var block = block
        block.spaceBefore = block.spaceBefore || spacePending
        block.offset = offset
        blocks.append(block)
        offset += block.length
        spacePending = false
        if provisionalDepth == 0, let blockObserver { blockObserver(self) }
    }

    /// The base direction of a block: its `dir`, else right-to-left for right-to-left
    /// languages, else the first strong character.
    func blockDirection(for context: Context, _ attributes: Attributes?) -> BaseDirection {
        switch DirectionAttribute(attributes?["dir"]) ?? context.direction {
        case .leftToRight: return .leftToRight
        case .rightToLeft: return .rightToLeft
        case .auto: return .firstStrong(fallback: .leftToRight)
        case nil:
            let language = context.language ?? self.language ?? defaultLanguage
            if let language, Self.isRightToLeftLanguage(language) { return .rightToLeft }
            let fallback: TextDirection = language == nil && readingProgression == .rtl ? .rightToLeft : .leftToRight
            return .firstStrong(fallback: fallback)
        }
    }

    // MARK: - Anchors

    func recordAnchor(_ id: String) {
        guard anchors[id] == nil, !id.isEmpty else { return }
        let position = offset + (builder.map { $0.count + ($0.hasPendingSpace ? 1 : 0) } ?? 0)
        anchors[id] = TextDocument.Anchor(offset: position, blocks: blockCount..<(blockCount + 1))
    }

    func closeAnchor(_ id: String, from first: Int) {
        guard let anchor = anchors[id], anchor.blocks.lowerBound == first else { return }
        anchors[id]?.blocks = first..<max(first + 1, blockCount)
    }

    func withAnchor(_ attributes: Attributes, _ body: () -> Void) {
        guard let id = attributes["id"] else { return body() }
        if builder == nil { flushBlock() }
        let first = blockCount
        recordAnchor(id)
        body()
        closeAnchor(id, from: first)
    }
}

import LibXML
import Shared

/// Walks an HTML tree and emits ``TextBlock``s: the state of one conversion.
///
/// Recursion is bounded (``maximumDepth``): deeper elements contribute their text only, walked
/// with an explicit stack, so hostile nesting cannot exhaust a task's stack.
final class HTMLConverter {
    /// What an element inherits from its ancestors.
    struct Context {
        var style = TextStyle()
        var startIndent = 0
        var endIndent = 0
        var listDepth = 0
        var preformatted = false
        /// The nearest `dir` of a block ancestor.
        var direction: DirectionAttribute?
        var language: String?
    }

    enum DirectionAttribute {
        case leftToRight, rightToLeft, auto

        init?(_ value: String?) {
            switch value?.lowercased() {
            case "ltr": self = .leftToRight
            case "rtl": self = .rightToLeft
            case "auto": self = .auto
            default: return nil
            }
        }
    }

    struct ListState {
        var ordered: Bool
        var next: Int
        var step: Int
        var numbering: String
        var markerWidth: Int
    }

    struct PendingMarker {
        var text: String
        var width: Int
        var startIndent: Int
        var context: Context
    }

    static let maximumDepth = 64

    let href: String
    let defaultLanguage: String?
    let readingProgression: ReadingProgression
    let options: ContentParseOptions

    private var blocks: [TextBlock] = []
    private var links: [LinkTarget] = []
    private var anchors: [String: TextDocument.Anchor] = [:]
    private var notes: [String: TextDocument] = [:]
    private var title: String?
    private var language: String?
    /// The next offset of the document text.
    private var offset = 0

    /// The block being filled, its kind and the context it started in.
    private var builder: InlineTextBuilder?
    private var builderKind: TextBlock.Kind = .plain
    private var builderContext = Context()
    private var builderStartIndent = 0
    private var builderHanging = 0
    private var spacePending = false
    private var pendingMarker: PendingMarker?
    private var lists: [ListState] = []

    init(href: String, language: String?, readingProgression: ReadingProgression, options: ContentParseOptions) {
        self.href = href
        self.defaultLanguage = language
        self.readingProgression = readingProgression
        self.options = options
    }

    /// Converts the tree under `root` (the `<html>` element).
    func convert(_ root: XMLElement) -> TextDocument {
        walk(root, Context(language: defaultLanguage), depth: 0)
        flushBlock()
        emitPendingMarker()
        return TextDocument(href: href, title: title, language: language ?? defaultLanguage, blocks: blocks,
                            links: links, anchors: anchors, notes: notes)
    }

    /// Converts the children of `element` alone (a note).
    func convertChildren(of element: XMLElement, _ context: Context) -> TextDocument {
        var context = context
        context.startIndent = 0
        context.endIndent = 0
        context.listDepth = 0
        walkChildren(element, context, depth: 1)
        flushBlock()
        emitPendingMarker()
        return TextDocument(href: href, title: nil, language: context.language, blocks: blocks, links: links,
                            anchors: anchors, notes: notes)
    }

    // MARK: - Walking

    private func walk(_ element: XMLElement, _ inherited: Context, depth: Int) {
        if depth > Self.maximumDepth {
            appendFlattenedText(element, inherited)
            return
        }
        let name = element.localName.lowercased()
        if Self.ignoredElements.contains(name) { return }
        if name == "head" {
            if title == nil, let titleElement = element.firstChild(named: "title") { title = titleElement.normalizedText }
            return
        }
        let attributes = Attributes(element)
        let types = attributes.epubTypes
        let role = attributes["role"]
        if name == "aside", !types.isDisjoint(with: Self.noteTypes) || role == "doc-footnote" || role == "doc-endnote" {
            captureNote(element, attributes, inherited)
            return
        }
        if attributes.isHidden { return }
        var context = inherited
        if let language = attributes.language {
            context.language = language
            if name == "html" { self.language = language }
        }
        if types.contains("pagebreak") || role == "doc-pagebreak" {
            if let id = attributes["id"] { recordAnchor(id) }
            return
        }

        switch name {
        case "html", "body":
            if let direction = DirectionAttribute(attributes["dir"]) { context.direction = direction }
            withAnchor(attributes) { walkChildren(element, context, depth: depth + 1) }
        case "p":
            blockElement(element, attributes, .paragraph, context, depth: depth)
        case "h1", "h2", "h3", "h4", "h5", "h6":
            flushBlock()
            spacePending = true
            context.style.emphasis.insert(.bold)
            blockElement(element, attributes, .heading(level: Int(String(name.dropFirst()))!), context, depth: depth)
            spacePending = true
        case "ul", "ol", "menu", "dir":
            list(element, attributes, ordered: name == "ol", context, depth: depth)
        case "li":
            listItem(element, attributes, context, depth: depth)
        case "dt":
            context.style.emphasis.insert(.bold)
            blockElement(element, attributes, .plain, context, depth: depth)
        case "dd":
            context.startIndent += 4
            container(element, attributes, context, depth: depth, spacing: false)
        case "dl":
            container(element, attributes, context, depth: depth, spacing: context.listDepth == 0)
        case "blockquote":
            context.startIndent += 2
            context.endIndent += 2
            container(element, attributes, context, depth: depth, spacing: true)
        case "pre", "listing", "xmp", "plaintext":
            flushBlock()
            spacePending = true
            context.preformatted = true
            blockElement(element, attributes, .preformatted, context, depth: depth)
            spacePending = true
        case "hr":
            flushBlock()
            if let id = attributes["id"] { recordAnchor(id) }
            let direction = blockDirection(for: context, attributes)
            var text = InlineText()
            text.direction = direction == .rightToLeft ? .rightToLeft : .leftToRight
            appendBlock(TextBlock(kind: .rule, text: text, table: nil, startIndent: context.startIndent,
                                  endIndent: context.endIndent, hangingIndent: 0, spaceBefore: true,
                                  language: context.language, offset: offset, length: 1))
            spacePending = true
        case "table":
            table(element, attributes, context, depth: depth)
        case "br":
            ensureBuilder(context)
            builder?.appendLineBreak()
        case "wbr":
            builder?.appendBreakOpportunity()
        case "img":
            image(attributes, context)
        case "input":
            if attributes["type"]?.lowercased() == "image" { image(attributes, context) }
        case "svg":
            svg(element, attributes, context)
        case "math":
            math(element, attributes, context)
        case "video", "audio":
            let label = attributes["title"] ?? attributes["aria-label"]
            appendGenerated("[\(name)\(label.map { ": " + $0 } ?? "")]", role: .image, context)
        case "ruby":
            withAnchor(attributes) { ruby(element, context, depth: depth) }
        case "rt", "rtc":
            rubyAnnotation(element, context, depth: depth)
        case "a":
            link(element, attributes, types: types, role: role, context, depth: depth)
        case "switch":
            // epub:switch: show the fallback (epub:default), never a case.
            if let fallback = element.firstChild(named: "default") { walk(fallback, context, depth: depth + 1) }
        case "case":
            break
        case "q":
            appendGenerated("“", role: context.style.role, context)
            inline(element, attributes, context, depth: depth)
            appendGenerated("”", role: context.style.role, context)
        case "b", "strong":
            context.style.emphasis.insert(.bold)
            inline(element, attributes, context, depth: depth)
        case "i", "em", "cite", "dfn", "var":
            context.style.emphasis.insert(.italic)
            inline(element, attributes, context, depth: depth)
        case "u", "ins":
            context.style.emphasis.insert(.underline)
            inline(element, attributes, context, depth: depth)
        case "s", "strike", "del":
            context.style.emphasis.insert(.strikethrough)
            inline(element, attributes, context, depth: depth)
        case "code", "kbd", "samp", "tt":
            context.style.emphasis.insert(.code)
            inline(element, attributes, context, depth: depth)
        case "sup":
            context.style.emphasis.insert(.superscript)
            inline(element, attributes, context, depth: depth)
        case "sub":
            context.style.emphasis.insert(.subscript)
            inline(element, attributes, context, depth: depth)
        case "mark":
            context.style.emphasis.insert(.marked)
            inline(element, attributes, context, depth: depth)
        case "figcaption", "caption", "legend", "summary":
            context.style.emphasis.insert(.italic)
            blockElement(element, attributes, .plain, context, depth: depth)
        case "div":
            container(element, attributes, context, depth: depth, spacing: Self.hasBlockChild(element))
        default:
            if Self.spacedContainers.contains(name) {
                container(element, attributes, context, depth: depth, spacing: true)
            } else if Self.plainContainers.contains(name) {
                container(element, attributes, context, depth: depth, spacing: false)
            } else {
                inline(element, attributes, context, depth: depth)
            }
        }
    }

    private func walkChildren(_ element: XMLElement, _ context: Context, depth: Int) {
        element.forEachChildNode { node in
            switch node {
            case .element(let child): walk(child, context, depth: depth + 1)
            case .text(let text): appendText(text, context)
            }
        }
    }

    /// The text of a too-deep subtree, without structure, walked without recursion.
    private func appendFlattenedText(_ element: XMLElement, _ context: Context) {
        var stack: [XMLChildNode] = [.element(element)]
        while let node = stack.popLast() {
            switch node {
            case .text(let text):
                appendText(text, context)
            case .element(let child):
                let name = child.localName.lowercased()
                if Self.ignoredElements.contains(name) || name == "head" { continue }
                if name == "br" { ensureBuilder(context); builder?.appendLineBreak(); continue }
                var children: [XMLChildNode] = []
                child.forEachChildNode { children.append($0) }
                stack.append(contentsOf: children.reversed())
            }
        }
    }

    // MARK: - Blocks

    /// An element that is one block of text (`<p>`, `<h2>`, `<pre>`…).
    private func blockElement(_ element: XMLElement, _ attributes: Attributes, _ kind: TextBlock.Kind, _ context: Context, depth: Int) {
        var context = context
        if let direction = DirectionAttribute(attributes["dir"]) { context.direction = direction }
        startBlock(kind, context, attributes)
        let first = blocks.count
        if let id = attributes["id"] { recordAnchor(id) }
        walkChildren(element, context, depth: depth)
        flushBlock()
        if let id = attributes["id"] { closeAnchor(id, from: first) }
    }

    /// An element that holds blocks (`<div>`, `<section>`, `<blockquote>`…).
    private func container(_ element: XMLElement, _ attributes: Attributes, _ context: Context, depth: Int, spacing: Bool) {
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

    /// An inline element: its children join the current block.
    private func inline(_ element: XMLElement, _ attributes: Attributes, _ context: Context, depth: Int) {
        let direction = DirectionAttribute(attributes["dir"])
        let isOverride = element.localName.lowercased() == "bdo"
        let isolate = element.localName.lowercased() == "bdi"
        if direction != nil || isolate {
            ensureBuilder(context)
            let opening: UInt32 = switch (direction, isOverride) {
            case (.leftToRight, true): 0x202D
            case (.rightToLeft, true): 0x202E
            case (.leftToRight, false): 0x2066
            case (.rightToLeft, false): 0x2067
            default: 0x2068
            }
            builder?.addBidiMark(opening)
            withAnchor(attributes) { walkChildren(element, context, depth: depth) }
            ensureBuilder(context)
            builder?.addBidiMark(isOverride && direction != .auto && direction != nil ? 0x202C : 0x2069)
        } else {
            withAnchor(attributes) { walkChildren(element, context, depth: depth) }
        }
    }

    private func list(_ element: XMLElement, _ attributes: Attributes, ordered: Bool, _ context: Context, depth: Int) {
        var context = context
        if let direction = DirectionAttribute(attributes["dir"]) { context.direction = direction }
        flushBlock()
        emitPendingMarker()
        let topLevel = context.listDepth == 0
        if topLevel { spacePending = true }
        let items = element.children(named: "li")
        let reversed = attributes["reversed"] != nil
        let start = attributes["start"].flatMap { Int($0.trimmed) } ?? (reversed ? items.count : 1)
        let numbering = attributes["type"] ?? "1"
        var state = ListState(ordered: ordered, next: start, step: reversed ? -1 : 1, numbering: numbering, markerWidth: 2)
        if ordered {
            var value = start, widest = 0
            for item in items {
                if let explicit = item.attribute("value").flatMap({ Int($0.trimmed) }) { value = explicit }
                widest = max(widest, CellWidth.of(ListNumbering.marker(value, type: numbering)))
                value += state.step
            }
            state.markerWidth = widest + 1
        } else {
            state.markerWidth = CellWidth.of(ListNumbering.bullet(depth: context.listDepth)) + 1
        }
        lists.append(state)
        context.listDepth += 1
        withAnchor(attributes) {
            walkChildren(element, context, depth: depth)
            flushBlock()
            emitPendingMarker()
        }
        lists.removeLast()
        if topLevel { spacePending = true }
    }

    private func listItem(_ element: XMLElement, _ attributes: Attributes, _ context: Context, depth: Int) {
        var context = context
        if let direction = DirectionAttribute(attributes["dir"]) { context.direction = direction }
        flushBlock()
        emitPendingMarker()
        let marker: String, width: Int
        if var state = lists.last {
            if state.ordered {
                if let explicit = attributes["value"].flatMap({ Int($0.trimmed) }) { state.next = explicit }
                marker = ListNumbering.marker(state.next, type: state.numbering)
                state.next += state.step
            } else {
                marker = ListNumbering.bullet(depth: max(0, context.listDepth - 1))
            }
            width = max(state.markerWidth, CellWidth.of(marker) + 1)
            lists[lists.count - 1] = state
        } else {
            marker = ListNumbering.bullet(depth: 0)
            width = 2
        }
        pendingMarker = PendingMarker(text: marker, width: width, startIndent: context.startIndent, context: context)
        context.startIndent += width
        withAnchor(attributes) {
            walkChildren(element, context, depth: depth)
            flushBlock()
            emitPendingMarker()
        }
    }

    /// A list item whose marker no text has claimed yet gets a block of its own.
    private func emitPendingMarker() {
        guard let marker = pendingMarker else { return }
        startBlock(.listItem, marker.context, nil)
        flushBlock()
    }

    // MARK: - Tables

    private func table(_ element: XMLElement, _ attributes: Attributes, _ context: Context, depth: Int) {
        var context = context
        if let direction = DirectionAttribute(attributes["dir"]) { context.direction = direction }
        flushBlock()
        emitPendingMarker()
        spacePending = true
        if let caption = element.firstChild(named: "caption") {
            var captionContext = context
            captionContext.style.emphasis.insert(.italic)
            blockElement(caption, Attributes(caption), .plain, captionContext, depth: depth + 1)
        }
        if let id = attributes["id"] { recordAnchor(id) }
        let tableStart = offset, firstBlock = blocks.count
        let hadSpace = spacePending
        var rows: [[TableCell]] = []
        var headerRows = 0
        func visitRow(_ row: XMLElement, header: Bool) {
            var cells: [TableCell] = []
            for cell in row.children {
                let name = cell.localName.lowercased()
                guard name == "td" || name == "th" else { continue }
                let cellAttributes = Attributes(cell)
                if cellAttributes.isHidden { continue }
                cells.append(collectCell(cell, cellAttributes, isHeader: name == "th", context, depth: depth + 2))
            }
            guard !cells.isEmpty else { return }
            rows.append(cells)
            if headerRows == rows.count - 1, header || cells.allSatisfy(\.isHeader) { headerRows = rows.count }
        }
        func visitGroup(_ group: XMLElement, header: Bool, level: Int) {
            for child in group.children {
                switch child.localName.lowercased() {
                case "tr": visitRow(child, header: header)
                case "thead": if level < 3 { visitGroup(child, header: true, level: level + 1) }
                case "tbody", "tfoot": if level < 3 { visitGroup(child, header: header, level: level + 1) }
                default: break
                }
            }
        }
        visitGroup(element, header: false, level: 0)
        guard !rows.isEmpty else {
            spacePending = true
            return
        }
        let direction: TextDirection = blockDirection(for: context, attributes) == .rightToLeft ? .rightToLeft : .leftToRight
        let content = TableContent(rows: rows, headerRows: headerRows, direction: direction)
        let length = rows.reduce(0) { $0 + $1.reduce(0) { $0 + $1.text.count + 1 } }
        offset = tableStart
        appendBlock(TextBlock(kind: .table, text: InlineText(), table: content, startIndent: context.startIndent,
                              endIndent: context.endIndent, hangingIndent: 0, spaceBefore: hadSpace,
                              language: context.language, offset: tableStart, length: length))
        for (id, anchor) in anchors where anchor.blocks.lowerBound >= firstBlock && anchor.offset >= tableStart {
            anchors[id]?.blocks = firstBlock..<(firstBlock + 1)
        }
        if let id = attributes["id"] { anchors[id]?.blocks = firstBlock..<(firstBlock + 1) }
        spacePending = true
    }

    /// The content of a cell: its blocks converted as usual, then joined into one text.
    private func collectCell(_ cell: XMLElement, _ attributes: Attributes, isHeader: Bool, _ context: Context, depth: Int) -> TableCell {
        var context = context
        context.startIndent = 0
        context.endIndent = 0
        context.listDepth = 0
        if isHeader { context.style.emphasis.insert(.bold) }
        if let direction = DirectionAttribute(attributes["dir"]) { context.direction = direction }
        let savedLists = lists, savedSpace = spacePending
        lists = []
        let firstBlock = blocks.count, start = offset
        if let id = attributes["id"] { recordAnchor(id) }
        walkChildren(cell, context, depth: depth)
        flushBlock()
        emitPendingMarker()
        var text = InlineText()
        var first = true
        for block in blocks[firstBlock...] {
            let pieces = block.table.map { $0.rows.flatMap { $0.map(\.text) } } ?? [block.text]
            for piece in pieces {
                if first { text = piece; first = false } else { text.appendParagraph(piece) }
            }
        }
        blocks.removeSubrange(firstBlock...)
        lists = savedLists
        spacePending = savedSpace
        offset = start + text.count + 1
        let span = attributes["colspan"].flatMap { Int($0.trimmed) }.map { min(max($0, 1), 64) } ?? 1
        return TableCell(text: text, isHeader: isHeader, columnSpan: span, offset: start)
    }

    // MARK: - Inline content

    private func appendText(_ text: String, _ context: Context) {
        if builder == nil {
            if !context.preformatted, text.utf8.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D || $0 == 0x0C }) {
                return
            }
            startBlock(pendingMarker != nil ? .listItem : .plain, context, nil)
        }
        builder?.append(text, style: context.style)
    }

    private func appendGenerated(_ text: String, role: TextStyle.Role, _ context: Context) {
        ensureBuilder(context)
        var style = context.style
        style.role = role
        builder?.appendGenerated(text, style: style)
    }

    private func ensureBuilder(_ context: Context) {
        if builder == nil { startBlock(pendingMarker != nil ? .listItem : .plain, context, nil) }
    }

    private func image(_ attributes: Attributes, _ context: Context) {
        let source = attributes["src"] ?? attributes["xlink:href"] ?? attributes["href"]
        let alt = attributes["alt"]?.trimmed ?? ""
        let label = alt.isEmpty ? Self.fileName(source) ?? "image" : alt
        var imageContext = context
        if imageContext.style.linkIndex == nil, let source, !source.isEmpty {
            imageContext.style.linkIndex = addLink(source, isNote: false)
        }
        withAnchor(attributes) { appendGenerated("[image: \(label)]", role: .image, imageContext) }
    }

    private func svg(_ element: XMLElement, _ attributes: Attributes, _ context: Context) {
        var label = element.firstChild(named: "title")?.normalizedText ?? attributes["aria-label"]
        var source: String?
        if label == nil || label!.isEmpty {
            source = Self.findImageSource(element, depth: 0)
            label = Self.fileName(source)
        }
        var imageContext = context
        if imageContext.style.linkIndex == nil, let source { imageContext.style.linkIndex = addLink(source, isNote: false) }
        let text = label.map { $0.isEmpty ? "[image]" : "[image: \($0)]" } ?? "[image]"
        withAnchor(attributes) { appendGenerated(text, role: .image, imageContext) }
    }

    private func math(_ element: XMLElement, _ attributes: Attributes, _ context: Context) {
        var label = attributes["alttext"]?.trimmed ?? ""
        if label.isEmpty {
            label = Self.boundedText(element, limit: 200).split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
                .joined(separator: " ")
        }
        withAnchor(attributes) { appendGenerated(label.isEmpty ? "[math]" : "[math: \(label)]", role: .math, context) }
    }

    private func ruby(_ element: XMLElement, _ context: Context, depth: Int) {
        ensureBuilder(context)
        let start = (builder?.count ?? 0) + (builder?.hasPendingSpace == true ? 1 : 0)
        defer { builder?.prohibitBreaks(from: start) }
        element.forEachChildNode { node in
            switch node {
            case .text(let text):
                appendText(text, context)
            case .element(let child):
                switch child.localName.lowercased() {
                case "rt", "rtc": rubyAnnotation(child, context, depth: depth + 1)
                case "rp": break
                default: walk(child, context, depth: depth + 1)
                }
            }
        }
    }

    private func rubyAnnotation(_ element: XMLElement, _ context: Context, depth: Int) {
        guard options.ruby == .parenthesized else { return }
        let wide = builder.map { $0.leads.last.flatMap(Unicode.Scalar.init).map { CellWidth.of($0) == 2 } ?? false } ?? false
        var annotation = context
        annotation.style.role = .rubyAnnotation
        appendGenerated(wide ? "（" : "(", role: .rubyAnnotation, annotation)
        walkChildren(element, annotation, depth: depth)
        appendGenerated(wide ? "）" : ")", role: .rubyAnnotation, annotation)
    }

    private func link(_ element: XMLElement, _ attributes: Attributes, types: Set<String>, role: String?, _ context: Context, depth: Int) {
        var context = context
        if let target = attributes["href"]?.trimmed, !target.isEmpty, !target.lowercased().hasPrefix("javascript:") {
            let isNote = types.contains("noteref") || role == "doc-noteref"
            context.style.linkIndex = addLink(target, isNote: isNote)
            context.style.role = isNote ? .noteReference : .link
        }
        if attributes["id"] == nil, let name = attributes["name"] { recordAnchor(name) }
        inline(element, attributes, context, depth: depth)
    }

    private func addLink(_ target: String, isNote: Bool) -> Int {
        let resolved = Href.resolve(target, against: href)
        links.append(LinkTarget(href: resolved, isExternal: Href.isAbsoluteURL(resolved), isNoteReference: isNote))
        return links.count - 1
    }

    // MARK: - Notes

    /// A footnote aside: converted on its own, kept out of the main flow.
    private func captureNote(_ element: XMLElement, _ attributes: Attributes, _ context: Context) {
        let converter = HTMLConverter(href: href, language: context.language ?? defaultLanguage,
                                      readingProgression: readingProgression, options: options)
        var noteContext = context
        if let language = attributes.language { noteContext.language = language }
        let note = converter.convertChildren(of: element, noteContext)
        if let id = attributes["id"] { notes[id] = notes[id] ?? note }
        for id in note.anchors.keys where notes[id] == nil { notes[id] = note }
    }

    // MARK: - Block bookkeeping

    private func startBlock(_ kind: TextBlock.Kind, _ context: Context, _ attributes: Attributes?) {
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

    private func flushBlock() {
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

    private func appendBlock(_ block: TextBlock) {
        var block = block
        block.spaceBefore = block.spaceBefore || spacePending
        block.offset = offset
        blocks.append(block)
        offset += block.length
        spacePending = false
    }

    /// The base direction of a block: its `dir`, else right-to-left for right-to-left
    /// languages, else the first strong character.
    private func blockDirection(for context: Context, _ attributes: Attributes?) -> BaseDirection {
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

    private func recordAnchor(_ id: String) {
        guard anchors[id] == nil, !id.isEmpty else { return }
        let position = offset + (builder.map { $0.count + ($0.hasPendingSpace ? 1 : 0) } ?? 0)
        anchors[id] = TextDocument.Anchor(offset: position, blocks: blocks.count..<(blocks.count + 1))
    }

    private func closeAnchor(_ id: String, from first: Int) {
        guard let anchor = anchors[id], anchor.blocks.lowerBound == first else { return }
        anchors[id]?.blocks = first..<max(first + 1, blocks.count)
    }

    private func withAnchor(_ attributes: Attributes, _ body: () -> Void) {
        guard let id = attributes["id"] else { return body() }
        if builder == nil { flushBlock() }
        let first = blocks.count
        recordAnchor(id)
        body()
        closeAnchor(id, from: first)
    }

    // MARK: - Vocabulary

    static let ignoredElements: Set<String> = [
        "script", "style", "template", "noscript", "link", "meta", "base", "title", "button", "select",
        "textarea", "option", "datalist", "map", "area", "param", "source", "track", "colgroup", "col", "rp",
        "iframe", "embed", "frame", "frameset", "dialog",
    ]

    static let noteTypes: Set<String> = ["footnote", "endnote", "rearnote", "note"]

    static let spacedContainers: Set<String> = [
        "section", "article", "aside", "header", "footer", "nav", "main", "figure", "details", "fieldset",
        "form", "hgroup", "address", "center", "search",
    ]

    static let plainContainers: Set<String> = ["default", "object", "canvas", "picture", "li", "tr", "td", "th", "tbody", "thead", "tfoot"]

    static let blockElements: Set<String> = [
        "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "dl", "blockquote", "pre", "hr", "table",
        "section", "article", "aside", "header", "footer", "nav", "main", "figure", "figcaption", "address",
        "details", "fieldset", "form", "hgroup", "center", "menu", "dir", "listing",
    ]

    static func hasBlockChild(_ element: XMLElement) -> Bool {
        element.children.contains { blockElements.contains($0.localName.lowercased()) }
    }

    static func isRightToLeftLanguage(_ tag: String) -> Bool {
        let primary = tag.split(separator: "-").first.map { $0.lowercased() } ?? ""
        return ["ar", "he", "iw", "fa", "ur", "yi", "ji", "ps", "sd", "ug", "ckb", "dv", "syr", "arc", "nqo"].contains(primary)
    }

    /// The last path segment of a URL, percent-decoded, without query or fragment.
    static func fileName(_ source: String?) -> String? {
        guard let source, !source.isEmpty, !source.hasPrefix("data:") else { return nil }
        let path = Href.removingFragment(source).split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        let last = path.split(separator: "/").last.map(String.init) ?? path
        return Href.percentDecoded(last) ?? last
    }

    private static func findImageSource(_ element: XMLElement, depth: Int) -> String? {
        guard depth < 8 else { return nil }
        for child in element.children {
            if child.localName.lowercased() == "image" || child.localName.lowercased() == "img" {
                if let source = child.attribute("xlink:href") ?? child.attribute("href") ?? child.attribute("src") { return source }
            }
            if let found = findImageSource(child, depth: depth + 1) { return found }
        }
        return nil
    }

    /// At most `limit` characters of the text under `element`, without recursion.
    static func boundedText(_ element: XMLElement, limit: Int) -> String {
        var result = ""
        var stack: [XMLChildNode] = [.element(element)]
        while let node = stack.popLast(), result.count < limit {
            switch node {
            case .text(let text): result += text
            case .element(let child):
                if child.localName.lowercased() == "annotation-xml" { continue }
                var children: [XMLChildNode] = []
                child.forEachChildNode { children.append($0) }
                stack.append(contentsOf: children.reversed())
            }
        }
        return String(result.prefix(limit))
    }
}

/// The attributes of an element, read once.
struct Attributes {
    private var values: [(String, String)] = []

    init(_ element: XMLElement) {
        for attribute in element.attributes {
            values.append((attribute.name.lowercased(), attribute.value))
        }
    }

    subscript(_ name: String) -> String? {
        for (key, value) in values where key == name { return value }
        return nil
    }

    /// `epub:type` tokens.
    var epubTypes: Set<String> {
        guard let value = self["epub:type"] else { return [] }
        return Set(value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map { $0.lowercased() })
    }

    /// `xml:lang`, else `lang`.
    var language: String? {
        let value = (self["xml:lang"] ?? self["lang"])?.trimmed
        return value?.isEmpty == false ? value : nil
    }

    /// `hidden`, or an inline style with `display: none`.
    var isHidden: Bool {
        if self["hidden"] != nil { return true }
        guard let style = self["style"]?.lowercased() else { return false }
        return style.filter { $0 != " " && $0 != "\t" }.contains("display:none")
    }
}

import LibXML
import Shared
import TerminalCells

/// Inline styling: text, generated text (images, math, ruby), links and notes.
extension HTMLConverter {
    /// An inline element: its children join the current block.
    func inline(_ element: XMLElement, _ attributes: Attributes, _ context: Context, depth: Int) {
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

    // MARK: - Inline content

    func appendText(_ text: String, _ context: Context) {
        if isStopped { return }
        if builder == nil {
            if !context.preformatted, text.utf8.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D || $0 == 0x0C }) {
                return
            }
            startBlock(pendingMarker != nil ? .listItem : .plain, context, nil)
        }
        builder?.append(text, style: context.style)
    }

    func appendGenerated(_ text: String, role: TextStyle.Role, _ context: Context) {
        ensureBuilder(context)
        var style = context.style
        style.role = role
        builder?.appendGenerated(text, style: style)
    }

    func ensureBuilder(_ context: Context) {
        if builder == nil { startBlock(pendingMarker != nil ? .listItem : .plain, context, nil) }
    }

    func image(_ attributes: Attributes, _ context: Context) {
        let source = attributes["src"] ?? attributes["xlink:href"] ?? attributes["href"]
        let alt = attributes["alt"]?.trimmed ?? ""
        let label = alt.isEmpty ? Self.fileName(source) ?? "image" : alt
        var imageContext = context
        if imageContext.style.linkIndex == nil, let source, !source.isEmpty {
            imageContext.style.linkIndex = addLink(source, isNote: false)
        }
        withAnchor(attributes) { appendGenerated("[image: \(label)]", role: .image, imageContext) }
        recordImage(source, alt: alt)
    }

    /// Notes an image of the block being built, for pictures drawn above it.
    func recordImage(_ source: String?, alt: String) {
        guard let source, !source.isEmpty, !source.hasPrefix("data:") else { return }
        let resolved = Href.resolve(source, against: href)
        guard !Href.isAbsoluteURL(resolved) else { return }
        images.append(TextDocument.ImageReference(href: resolved, alt: alt, blockIndex: blockCount))
    }

    func svg(_ element: XMLElement, _ attributes: Attributes, _ context: Context) {
        let imageSource = Self.findImageSource(element, depth: 0)
        // A fixed-layout page drawn in SVG holds its words in <text>: they are the page's text,
        // reflowed like any other (the picture shows what is drawn around them).
        let words = Self.svgText(element)
        if !words.isEmpty {
            withAnchor(attributes) { appendText(words, context) }
            if let imageSource { recordImage(imageSource, alt: "") }
            return
        }
        var label = element.firstChild(named: "title")?.normalizedText ?? attributes["aria-label"]
        var source: String?
        if label == nil || label!.isEmpty {
            source = imageSource
            label = Self.fileName(source)
        }
        var imageContext = context
        if imageContext.style.linkIndex == nil, let source { imageContext.style.linkIndex = addLink(source, isNote: false) }
        let text = label.map { $0.isEmpty ? "[image]" : "[image: \($0)]" } ?? "[image]"
        withAnchor(attributes) { appendGenerated(text, role: .image, imageContext) }
        recordImage(imageSource, alt: label ?? "")
    }

    func math(_ element: XMLElement, _ attributes: Attributes, _ context: Context) {
        // The formula told in one line; a book's alttext only when the markup shows nothing,
        // and not when it only says there is no description.
        let alttext = attributes["alttext"]?.trimmed ?? ""
        let text = MathMLText.linear(element) ?? (MathMLText.isMeaningful(alttext: alttext) ? alttext : nil)
        withAnchor(attributes) { appendGenerated(text ?? "[math]", role: .math, context) }
    }

    func ruby(_ element: XMLElement, _ context: Context, depth: Int) {
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

    func rubyAnnotation(_ element: XMLElement, _ context: Context, depth: Int) {
        guard options.ruby == .parenthesized else { return }
        let wide = builder.map { $0.leads.last.flatMap(Unicode.Scalar.init).map { CellWidth.of($0) == 2 } ?? false } ?? false
        var annotation = context
        annotation.style.role = .rubyAnnotation
        appendGenerated(wide ? "（" : "(", role: .rubyAnnotation, annotation)
        walkChildren(element, annotation, depth: depth)
        appendGenerated(wide ? "）" : ")", role: .rubyAnnotation, annotation)
    }

    func link(_ element: XMLElement, _ attributes: Attributes, types: Set<String>, role: String?, _ context: Context, depth: Int) {
        var context = context
        var isNote = false
        if let target = attributes["href"]?.trimmed, !target.isEmpty, !target.lowercased().hasPrefix("javascript:") {
            isNote = types.contains("noteref") || role == "doc-noteref"
            context.style.linkIndex = addLink(target, isNote: isNote)
            context.style.role = isNote ? .noteReference : .link
        }
        if attributes["id"] == nil, let name = attributes["name"] { recordAnchor(name) }
        // Read before the walk, which releases the children of an incrementally parsed link.
        let isUnnumbered = isNote && Self.isUnnumberedMarker(element.textContent)
        inline(element, attributes, context, depth: depth)
        // `*` `*` `†` cannot be told apart on a page: each gets a number of its own, `*¹ *²`.
        if isUnnumbered {
            unnumberedNoteMarkers += 1
            appendGenerated(Self.superscript(unnumberedNoteMarkers), role: .noteReference, context)
        }
    }

    /// Whether a note reference's text is a symbol without a number or letter (`*`, `†`, `‡`).
    static func isUnnumberedMarker(_ text: String) -> Bool {
        let marker = text.trimmed
        return !marker.isEmpty && marker.count <= 3 && !marker.contains { $0.isLetter || $0.isNumber }
    }

    /// `number` in superscript digits.
    static func superscript(_ number: Int) -> String {
        let digits: [Character] = ["⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"]
        return String(String(number).compactMap { $0.wholeNumberValue.map { digits[$0] } })
    }

    func addLink(_ target: String, isNote: Bool) -> Int {
        let resolved = Href.resolve(target, against: href)
        links.append(LinkTarget(href: resolved, isExternal: Href.isAbsoluteURL(resolved), isNoteReference: isNote))
        return links.count - 1
    }

    // MARK: - Notes

    /// A footnote aside: converted on its own, kept out of the main flow.
    func captureNote(_ element: XMLElement, _ attributes: Attributes, _ context: Context) {
        let converter = HTMLConverter(href: href, language: context.language ?? defaultLanguage,
                                      readingProgression: readingProgression, options: options)
        var noteContext = context
        if let language = attributes.language { noteContext.language = language }
        let note = converter.convertChildren(of: element, noteContext)
        if let id = attributes["id"] { notes[id] = notes[id] ?? note }
        for id in note.anchors.keys where notes[id] == nil { notes[id] = note }
    }
}

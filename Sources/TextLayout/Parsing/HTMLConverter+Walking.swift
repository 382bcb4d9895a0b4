import LibXML
import Shared

/// Tokenising: the dispatch of each element of the tree to the stage that handles it.
extension HTMLConverter {
    // MARK: - Walking

    func walk(_ element: XMLElement, _ inherited: Context, depth: Int) {
        if isStopped { return }
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
            withAnchor(attributes) {
                if name == "body", let partCheckpoint {
                    walkPart(element, context, depth: depth + 1, wrappers: partCheckpoint.wrappers.count)
                } else if name == "body", let checkpointRecorder {
                    walkBody(element, context, depth: depth + 1, recording: checkpointRecorder)
                } else {
                    walkChildren(element, context, depth: depth + 1)
                }
            }
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

    /// Walks the children of `element` in order; in a document parsed incrementally, each is
    /// released once converted (nothing holds on to a child after its walk).
    func walkChildren(_ element: XMLElement, _ context: Context, depth: Int) {
        if checkpointRecorder != nil, walkWrapperRecording(element, context, depth: depth) { return }
        element.forEachChildNode(releasingVisited: true) { node in
            switch node {
            case .element(let child): walk(child, context, depth: depth + 1)
            case .text(let text): appendText(text, context)
            }
        }
    }

    /// The text of a too-deep subtree, without structure, walked without recursion.
    func appendFlattenedText(_ element: XMLElement, _ context: Context) {
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
}

import LibXML
import Shared

/// Writes FB2 body markup as XHTML: sections, titles, paragraphs, poems, epigraphs, citations,
/// tables, pictures, emphasis and links. Links into the notes body become note references
/// (`epub:type="noteref"`), which the reader opens in a popup.
final class FB2Converter {
    /// The generated document each `id` of the book is in (`chapter-0003.xhtml`), relative to
    /// the other generated documents.
    var documentOfID: [String: String]
    /// The ids that are notes.
    var noteIDs: Set<String>
    /// The href of each binary picture, by its id.
    var pictureOfID: [String: String]
    /// The document being written, so that links inside it stay fragments.
    var currentDocument = ""
    /// Sections met so far, in document order: a section without an `id` is given one from it.
    private(set) var sectionCount = 0
    /// The titled sections written since the last ``takeOutline()``: their nesting, title and
    /// anchor, for the contents.
    private var outline: [(depth: Int, title: String, id: String)] = []

    init(documentOfID: [String: String], noteIDs: Set<String>, pictureOfID: [String: String]) {
        self.documentOfID = documentOfID
        self.noteIDs = noteIDs
        self.pictureOfID = pictureOfID
    }

    /// The titled sections written since the last call, nested, as contents entries whose
    /// hrefs start with `base` (the folder of the generated documents).
    func takeOutline(base: String) -> [Link] {
        defer { outline = [] }
        return HeadingOutline.contents(outline.map {
            HeadingOutline.Heading(level: $0.depth, title: $0.title, href: base + currentDocument + "#" + $0.id)
        })
    }

    /// Deeper nesting is written flat: a hostile file cannot exhaust the stack.
    static let maxDepth = 64

    /// `element`'s children as XHTML, `level` being the heading level of a title met here.
    func children(of element: XMLElement, level: Int, depth: Int = 0) -> String {
        var output = ""
        element.forEachChildNode { node in
            switch node {
            case .text(let text): output += XHTMLWriter.escape(text)
            case .element(let child): output += convert(child, level: level, depth: depth + 1)
            }
        }
        return output
    }

    func convert(_ element: XMLElement, level: Int, depth: Int) -> String {
        guard depth < Self.maxDepth else { return XHTMLWriter.escape(element.textContent) }
        let id = element.attribute("id").map { " id=\"\(XHTMLWriter.escape($0))\"" } ?? ""
        switch element.localName {
        case "section":
            sectionCount += 1
            let anchor = element.attribute("id") ?? "fb2-section-\(sectionCount)"
            if let title = element.firstChild(named: "title")?.normalizedText, !title.isEmpty {
                outline.append((depth + 1, title, anchor))
            }
            return "<section id=\"\(XHTMLWriter.escape(anchor))\">\n" + children(of: element, level: min(level + 1, 6), depth: depth)
                + "</section>\n"
        case "title":
            let lines = element.children(named: "p").map { children(of: $0, level: level, depth: depth) }
            let text = lines.isEmpty ? children(of: element, level: level, depth: depth) : lines.joined(separator: "<br/>")
            return "<h\(level)\(id)>\(text)</h\(level)>\n"
        case "subtitle":
            return "<p\(id) class=\"subtitle\"><strong>\(children(of: element, level: level, depth: depth))</strong></p>\n"
        case "p":
            return "<p\(id)>\(children(of: element, level: level, depth: depth))</p>\n"
        case "empty-line":
            return "<p class=\"empty-line\"><br/></p>\n"
        case "epigraph", "cite", "annotation":
            return "<blockquote\(id) class=\"\(element.localName)\">\n\(children(of: element, level: level, depth: depth))</blockquote>\n"
        case "text-author":
            return "<p\(id) class=\"text-author\"><em>\(children(of: element, level: level, depth: depth))</em></p>\n"
        case "poem":
            return "<div\(id) class=\"poem\">\n\(children(of: element, level: min(level + 1, 6), depth: depth))</div>\n"
        case "stanza":
            let lines = element.children(named: "v").map { children(of: $0, level: level, depth: depth) }
            let heading = element.firstChild(named: "title").map { convert($0, level: min(level + 1, 6), depth: depth + 1) } ?? ""
            return heading + "<p\(id) class=\"stanza\">" + lines.joined(separator: "<br/>") + "</p>\n"
        case "v":
            return "<p\(id)>\(children(of: element, level: level, depth: depth))</p>\n"
        case "image":
            let picture = self.picture(element)
            return element.parent.map(Self.isInline) ?? false ? picture : "<p\(id) class=\"image\">\(picture)</p>\n"
        case "table":
            return "<table\(id)>\n\(children(of: element, level: level, depth: depth))</table>\n"
        case "tr":
            return "<tr>\(children(of: element, level: level, depth: depth))</tr>\n"
        case "th", "td":
            let span = ["colspan", "rowspan"].compactMap { name in
                element.attribute(name).map { " \(name)=\"\(XHTMLWriter.escape($0))\"" }
            }.joined()
            return "<\(element.localName)\(span)>\(children(of: element, level: level, depth: depth))</\(element.localName)>"
        case "strong", "sub", "sup", "code":
            return "<\(element.localName)>\(children(of: element, level: level, depth: depth))</\(element.localName)>"
        case "emphasis":
            return "<em>\(children(of: element, level: level, depth: depth))</em>"
        case "strikethrough":
            return "<del>\(children(of: element, level: level, depth: depth))</del>"
        case "a":
            return link(element, depth: depth)
        default:
            // `style` and anything unknown: the content without the element.
            return children(of: element, level: level, depth: depth)
        }
    }

    private func link(_ element: XMLElement, depth: Int) -> String {
        let content = children(of: element, level: 6, depth: depth)
        guard let target = FB2Names.reference(element)?.trimmed, !target.isEmpty else { return content }
        if target.hasPrefix("#") {
            let id = String(target.dropFirst())
            guard let document = documentOfID[id] else { return content }
            let href = document == currentDocument ? target : document + target
            let isNote = noteIDs.contains(id) || element.attribute("type") == "note"
            let type = isNote ? " epub:type=\"noteref\" role=\"doc-noteref\"" : ""
            return "<a href=\"\(XHTMLWriter.escape(href))\"\(type)>\(content)</a>"
        }
        let lowered = target.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("mailto:") else { return content }
        return "<a href=\"\(XHTMLWriter.escape(target))\">\(content)</a>"
    }

    private func picture(_ element: XMLElement) -> String {
        guard let id = FB2Names.imageReference(element), let href = pictureOfID[id] else { return "" }
        let alt = element.attribute("alt") ?? element.attribute("title") ?? ""
        return "<img src=\"\(XHTMLWriter.escape(href))\" alt=\"\(XHTMLWriter.escape(alt))\"/>"
    }

    /// Whether an `image` inside `parent` sits in running text.
    private static func isInline(_ parent: XMLElement) -> Bool {
        ["p", "v", "subtitle", "text-author", "th", "td", "strong", "emphasis", "style", "a", "strikethrough", "sub", "sup"]
            .contains(parent.localName)
    }
}

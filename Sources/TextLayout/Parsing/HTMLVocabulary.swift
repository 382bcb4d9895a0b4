import LibXML
import Shared

/// The element names the conversion knows, and small helpers over elements.
extension HTMLConverter {
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
        element.firstChild { blockElements.contains($0.localName.lowercased()) } != nil
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

    static func findImageSource(_ element: XMLElement, depth: Int) -> String? {
        guard depth < 8 else { return nil }
        for child in element.children {
            if child.localName.lowercased() == "image" || child.localName.lowercased() == "img" {
                if let source = child.attribute("xlink:href") ?? child.attribute("href") ?? child.attribute("src") { return source }
            }
            if let found = findImageSource(child, depth: depth + 1) { return found }
        }
        return nil
    }

    /// The words of the `<text>` elements of an SVG drawing, in document order, spaces
    /// normalised (at most 20,000 characters).
    static func svgText(_ element: XMLElement) -> String {
        var pieces: [String] = []
        var total = 0
        var stack: [XMLElement] = [element]
        while let node = stack.popLast(), total < 20_000 {
            let name = node.localName.lowercased()
            if name == "text" {
                // Each <tspan> is placed on its own: one on a new line (another y) starts a new
                // word; one on the same line (an italic run) continues it.
                let spans = node.children.filter { $0.localName.lowercased() == "tspan" }
                var raw = spans.isEmpty ? boundedText(node, limit: 2_000) : ""
                var previousY: String?
                for span in spans {
                    let y = span.attribute("y")
                    if !raw.isEmpty, y != previousY { raw += " " }
                    raw += boundedText(span, limit: 2_000)
                    previousY = y
                }
                let words = raw.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
                    .joined(separator: " ")
                if !words.isEmpty { pieces.append(words); total += words.count }
                continue
            }
            if ["style", "title", "desc", "script", "defs", "metadata"].contains(name) { continue }
            stack.append(contentsOf: node.children.reversed())
        }
        return pieces.joined(separator: " ")
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

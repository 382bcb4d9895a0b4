import Shared
import TextLayout

/// Pages Lectern writes itself, laid out like the book's own: what stands in for a
/// reading-order item that is not text (an audiobook's tracks, an unreadable resource).
enum SyntheticDocuments {
    static func unreadable(link: Link, error: ContentLoadError, publication: Publication) -> TextDocument {
        var html = "<html><body>"
        if let mediaType = link.mediaType, mediaType.isAudio {
            let index = publication.readingOrder.firstIndex { $0.href == link.href }.map { $0 + 1 } ?? 0
            html += "<h1>\(escape(link.title ?? "Track \(index)"))</h1>"
            html += "<p>Audio track \(index) of \(publication.readingOrder.count) (\(escape(mediaType.string))"
            if let duration = link.duration { html += ", \(formatDuration(duration))" }
            html += "). Press a to play it.</p>"
            if index == 1 {
                if let cover = publication.resources.first(where: { $0.rels.contains("cover") }) ?? publication.links.first(where: { $0.rels.contains("cover") }) {
                    html += "<p>[cover: \(escape(cover.title ?? publication.metadata.title ?? Href.path(of: cover.href) ?? cover.href))]</p>"
                }
                html += trackList(publication)
            }
        } else {
            html += "<h1>\(escape(link.title ?? Href.path(of: link.href) ?? link.href))</h1>"
            html += "<p>This part cannot be shown: \(escape(error.userMessage)).</p>"
        }
        html += "</body></html>"
        return (try? ContentDocumentParser.parse(html: Array(html.utf8), href: link.href))
            ?? (try! ContentDocumentParser.parse(html: Array("<p>—</p>".utf8), href: link.href))
    }

    /// A PDF page's text as a document: headings as headings, running heads and page numbers
    /// as paragraphs of their own, the lines of a paragraph reflowed to the window (a word
    /// hyphenated at a line end is joined again).
    static func page(blocks: [PageTextBlock], href: String, label: String?, language: String?) -> TextDocument {
        var html = "<html><body>"
        for block in blocks {
            var paragraph = ""
            for line in block.text.split(separator: "\n") {
                let trimmed = String(line).trimmed
                if trimmed.isEmpty { continue }
                if paragraph.hasSuffix("-"), let first = trimmed.first, first.isLowercase {
                    paragraph.removeLast()
                    paragraph += trimmed
                } else {
                    paragraph += paragraph.isEmpty ? trimmed : " " + trimmed
                }
            }
            guard !paragraph.isEmpty else { continue }
            html += block.kind == .heading ? "<h2 id=\"\(headingID(paragraph))\">\(escape(paragraph))</h2>" : "<p>\(escape(paragraph))</p>"
        }
        if html == "<html><body>" { html += "<p>(This page has no text.)</p>" }
        html += "</body></html>"
        return (try? ContentDocumentParser.parse(html: Array(html.utf8), href: href, language: language))
            ?? (try! ContentDocumentParser.parse(html: Array("<p>—</p>".utf8), href: href))
    }

    /// The tracks and the table of contents of an audiobook.
    static func trackList(_ publication: Publication) -> String {
        var html = "<h2>Tracks</h2><ol>"
        for (index, link) in publication.readingOrder.enumerated() {
            html += "<li>\(escape(link.title ?? "Track \(index + 1)"))\(link.duration.map { " — " + formatDuration($0) } ?? "")</li>"
        }
        html += "</ol>"
        if !publication.tableOfContents.isEmpty {
            html += "<h2>Contents</h2><ul>"
            func walk(_ links: [Link]) {
                for link in links {
                    html += "<li>\(escape(link.title ?? link.href))"
                    if !link.children.isEmpty { html += "<ul>"; walk(link.children); html += "</ul>" }
                    html += "</li>"
                }
            }
            walk(publication.tableOfContents)
            html += "</ul>"
        }
        return html
    }

    static func formatDuration(_ seconds: Double) -> String {
        let total = max(0, seconds.clampedInt)
        return total >= 3600 ? "\(total / 3600):\(pad((total / 60) % 60)):\(pad(total % 60))" : "\(total / 60):\(pad(total % 60))"
    }

    static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// The id of a PDF page's heading whose text is `title` (its words in lower case joined by
    /// dashes, a leading section number left out: outlines often say "Bar" where the page says
    /// "2 Bar" or "IV. Bar"): a contents entry finds its heading on the page, where the outline
    /// only names the page (#29 item 12).
    static func headingID(_ title: String) -> String {
        var words = title.lowercased().split { !$0.isLetter && !$0.isNumber }
        while words.count > 1, let first = words.first,
              first.allSatisfy(\.isNumber) || (first.count <= 4 && first.allSatisfy({ "ivxlc".contains($0) })) {
            words.removeFirst()
        }
        return "heading-" + words.joined(separator: "-").prefix(80)
    }

    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "&": result += "&amp;"
            default: result.append(character)
            }
        }
        return result
    }
}

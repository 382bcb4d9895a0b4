import LibXML
import Shared

/// Splits FB2 bodies into the documents generated for them: what precedes the first section
/// of a body (its title, epigraphs, a picture), each top-level section, and one document for
/// all the notes bodies. Writes them at once: the libxml2 tree cannot leave the parse.
struct FB2Parts {
    private struct Part {
        var elements: [XMLElement]
        var isNotes = false
        var title: String?
    }

    private var parts: [Part] = []

    init(bodies: [XMLElement], notes: [XMLElement]) {
        for body in bodies {
            var lead: [XMLElement] = []
            for child in body.children {
                if child.localName == "section" {
                    if !lead.isEmpty { parts.append(Part(elements: lead)) }
                    lead = []
                    parts.append(Part(elements: [child]))
                } else {
                    lead.append(child)
                }
            }
            if !lead.isEmpty { parts.append(Part(elements: lead)) }
        }
        if !notes.isEmpty {
            let title = notes.first?.firstChild(named: "title")?.normalizedText
            parts.append(Part(elements: notes, isNotes: true, title: (title?.isEmpty ?? true) ? "Notes" : title))
        }
    }

    /// The documents, named by `names` (their index to a file name relative to each other).
    /// - Parameter base: the folder of the documents in the publication (`fb2/`).
    mutating func generate(names: (Int) -> String, base: String, pictureOfID: [String: String]) -> [GeneratedBook.Document] {
        var documentOfID: [String: String] = [:]
        var noteIDs: Set<String> = []
        for (index, part) in parts.enumerated() {
            var ids: [String] = []
            for element in part.elements { Self.collectIDs(element, into: &ids, depth: 0) }
            for id in ids where documentOfID[id] == nil { documentOfID[id] = names(index) }
            if part.isNotes { noteIDs.formUnion(ids) }
        }
        let converter = FB2Converter(documentOfID: documentOfID, noteIDs: noteIDs, pictureOfID: pictureOfID)
        var documents: [GeneratedBook.Document] = []
        for (index, part) in parts.enumerated() {
            converter.currentDocument = names(index)
            var body = ""
            if part.isNotes {
                body += "<h1>\(XHTMLWriter.escape(part.title ?? "Notes"))</h1>\n"
                for notesBody in part.elements {
                    for child in notesBody.children where child.localName != "title" {
                        body += converter.convert(child, level: 1, depth: 0)
                    }
                }
                _ = converter.takeOutline(base: base)
                let text = body
                documents.append(GeneratedBook.Document(title: part.title, body: { text }))
                continue
            }
            for element in part.elements {
                body += element.localName == "title" ? converter.convert(element, level: 1, depth: 0)
                    : converter.convert(element, level: 0, depth: 0)
            }
            let outline = converter.takeOutline(base: base)
            let text = body
            if outline.count == 1, let root = outline.first {
                documents.append(GeneratedBook.Document(title: root.title, children: root.children, body: { text }))
            } else {
                documents.append(GeneratedBook.Document(title: nil, children: outline, body: { text }))
            }
        }
        return documents
    }

    /// The `id`s of `element` and its descendants, in document order.
    private static func collectIDs(_ element: XMLElement, into ids: inout [String], depth: Int) {
        guard depth < FB2Converter.maxDepth else { return }
        if let id = element.attribute("id"), !id.isEmpty { ids.append(id) }
        for child in element.children { collectIDs(child, into: &ids, depth: depth + 1) }
    }
}

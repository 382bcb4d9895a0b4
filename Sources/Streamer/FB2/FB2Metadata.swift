import LibXML
import Shared

/// FB2's `description` mapped onto RWPM metadata: `title-info` (title, authors, translators,
/// genres, annotation, language, series, cover), `publish-info` (publisher, year, ISBN) and
/// `document-info` (identifier).
enum FB2Metadata {
    /// The metadata, and the `l:href` of the cover picture (`#cover.jpg`) when there is one.
    static func read(_ description: XMLElement?, fallbackTitle: String) -> (metadata: Metadata, coverReference: String?) {
        var metadata = Metadata(title: .nonlocalized(fallbackTitle))
        guard let description else { return (metadata, nil) }
        let titleInfo = description.firstChild(named: "title-info")
        func text(_ element: XMLElement?, _ name: String) -> String? {
            guard let value = element?.firstChild(named: name)?.normalizedText, !value.isEmpty else { return nil }
            return value
        }
        if let title = text(titleInfo, "book-title") { metadata.localizedTitle = .nonlocalized(title) }
        metadata.authors = people(titleInfo, "author")
        metadata.translators = people(titleInfo, "translator")
        if let language = text(titleInfo, "lang") { metadata.languages = [language] }
        metadata.subjects = (titleInfo?.children(named: "genre") ?? []).map(\.normalizedText).filter { !$0.isEmpty }
            .map { Subject(name: .nonlocalized($0), scheme: "http://www.fictionbook.org/genres") }
        if let annotation = titleInfo?.firstChild(named: "annotation") {
            let paragraphs = annotation.children.map(\.normalizedText).filter { !$0.isEmpty }
            let joined = paragraphs.isEmpty ? annotation.normalizedText : paragraphs.joined(separator: "\n")
            if !joined.isEmpty { metadata.description = joined }
        }
        if let sequence = titleInfo?.firstChild(named: "sequence"), let name = sequence.attribute("name")?.trimmed, !name.isEmpty {
            metadata.belongsTo["series"] = [Contributor(name: .nonlocalized(name),
                                                        position: sequence.attribute("number").flatMap { Double($0.trimmed) })]
        }
        let publishInfo = description.firstChild(named: "publish-info")
        if let publisher = text(publishInfo, "publisher") { metadata.publishers = [Contributor(name: .nonlocalized(publisher))] }
        metadata.published = text(publishInfo, "year") ?? text(titleInfo, "date")
        metadata.identifier = text(publishInfo, "isbn").map { "urn:isbn:" + $0 } ?? text(description.firstChild(named: "document-info"), "id")
        let cover = titleInfo?.firstChild(named: "coverpage")?.firstChild(named: "image").flatMap(FB2Names.imageReference)
        return (metadata, cover)
    }

    /// "First Middle Last", else the nickname, of each `author`/`translator`.
    private static func people(_ titleInfo: XMLElement?, _ name: String) -> [Contributor] {
        (titleInfo?.children(named: name) ?? []).compactMap { person in
            let parts = ["first-name", "middle-name", "last-name"].compactMap { person.firstChild(named: $0)?.normalizedText }
                .filter { !$0.isEmpty }
            let full = parts.isEmpty ? (person.firstChild(named: "nickname")?.normalizedText ?? "") : parts.joined(separator: " ")
            return full.isEmpty ? nil : Contributor(name: .nonlocalized(full))
        }
    }
}

/// Names FB2 documents use.
enum FB2Names {
    static let xlink = "http://www.w3.org/1999/xlink"

    /// The `l:href` (or `xlink:href`, or a bare `href`) of an element, whatever its prefix.
    static func reference(_ element: XMLElement) -> String? {
        element.attribute("href", namespace: xlink) ?? element.attribute(localName: "href")
    }

    /// The reference of an `image`, when it names a binary of the document (`#id`).
    static func imageReference(_ element: XMLElement) -> String? {
        guard let href = reference(element)?.trimmed, href.hasPrefix("#"), href.count > 1 else { return nil }
        return String(href.dropFirst())
    }
}

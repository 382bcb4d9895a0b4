import LibXML
import Shared

/// The entries of an OPF `metadata` element, indexed: Dublin Core elements, EPUB 3
/// `meta property` (primary and refining) and EPUB 2 `meta name/content`.
struct OPFMetadataEntries {
    /// An EPUB 3 `<meta property="…">`.
    struct Meta {
        /// The property as an IRI (see ``OPFVocabulary``).
        var property: String
        var content: String
        var id: String?
        /// The id of the element it refines, without `#`.
        var refines: String?
        var element: XMLElement
    }

    /// Dublin Core elements by local name (`title`, `creator`…), in document order.
    private(set) var dc: [String: [XMLElement]] = [:]
    /// Every Dublin Core element, in document order (for contributors, whose kinds interleave).
    private(set) var dcInOrder: [(name: String, element: XMLElement)] = []
    /// Primary `meta` elements (without `refines`), by property IRI.
    private(set) var primary: [String: [Meta]] = [:]
    /// Refining `meta` elements, by refined id.
    private(set) var refinements: [String: [Meta]] = [:]
    /// EPUB 2 `<meta name content>`, first value per name.
    private(set) var legacy: [String: String] = [:]

    init(metadata: XMLElement?, vocabulary: OPFVocabulary) {
        guard let metadata else { return }
        var elements: [XMLElement] = []
        for child in metadata.children {
            // OEB 1.2 and early EPUB 2 files wrap the entries in dc-metadata / x-metadata.
            if child.localName == "dc-metadata" || child.localName == "x-metadata" {
                elements += child.children
            } else {
                elements.append(child)
            }
        }
        for element in elements {
            if let name = Self.dublinCoreName(element) {
                dc[name, default: []].append(element)
                dcInOrder.append((name, element))
            } else if element.localName == "meta" {
                add(meta: element, vocabulary: vocabulary)
            }
        }
    }

    private mutating func add(meta element: XMLElement, vocabulary: OPFVocabulary) {
        if let property = element.attribute("property")?.trimmed.nilIfEmpty {
            let refines = element.attribute("refines")?.trimmed.nilIfEmpty.map { value in
                value.lastIndex(of: "#").map { String(value[value.index(after: $0)...]) } ?? value
            }
            let meta = Meta(property: vocabulary.expand(property), content: element.normalizedText,
                            id: element.attribute("id")?.trimmed.nilIfEmpty, refines: refines, element: element)
            if let refines {
                refinements[refines, default: []].append(meta)
            } else {
                primary[meta.property, default: []].append(meta)
            }
        } else if let name = element.attribute("name")?.trimmed.nilIfEmpty,
                  let content = element.attribute("content")?.trimmed {
            if legacy[name] == nil { legacy[name] = content }
        }
    }

    /// The Dublin Core local name of an element, or nil. An undeclared `dc:` prefix (which
    /// libxml2 keeps in the name when it recovers) is accepted too.
    private static func dublinCoreName(_ element: XMLElement) -> String? {
        if element.namespaceURI == EPUBNamespace.dc { return element.localName }
        if element.localName.hasPrefix("dc:") { return String(element.localName.dropFirst(3)) }
        return nil
    }

    /// The Dublin Core elements with this local name.
    func dc(_ name: String) -> [XMLElement] { dc[name] ?? [] }

    /// The primary metas with this property IRI.
    func metas(_ property: String) -> [Meta] { primary[property] ?? [] }

    /// The metas refining `id` with this property IRI.
    func refinements(of id: String?, _ property: String) -> [Meta] {
        guard let id else { return [] }
        return (refinements[id] ?? []).filter { $0.property == property }
    }

    /// The first refinement's content.
    func refinement(of id: String?, _ property: String) -> String? {
        refinements(of: id, property).first?.content.nilIfEmpty
    }
}

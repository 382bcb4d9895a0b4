import FoundationEssentials
import LibXML
import Shared

/// The parts of a package document (OPF) the parser uses, read tolerantly: elements are
/// matched by local name (EPUB 2 files put the OPF elements in or out of the OPF namespace,
/// with or without an `opf:` prefix).
struct OPFPackage {
    /// A manifest `item`.
    struct Item {
        var id: String?
        /// The `href` as written.
        var rawHref: String
        /// The publication href (resolved against the package document, canonical form).
        var href: String
        var mediaType: String?
        var properties: [String]
        var fallback: String?
        /// `media-overlay`: the id of the item's SMIL media overlay.
        var mediaOverlay: String? = nil
    }

    /// A spine `itemref`.
    struct Itemref {
        var idref: String
        var isLinear: Bool
        var properties: [String]
    }

    /// The href of the package document, against which its hrefs are resolved.
    let href: String
    let version: String?
    let uniqueIdentifierID: String?
    /// The `metadata` element (nil when missing).
    let metadata: XMLElement?
    let items: [Item]
    let itemrefs: [Itemref]
    /// `spine@page-progression-direction`.
    let pageProgressionDirection: String?
    /// `spine@toc`: the id of the NCX.
    let spineTOC: String?
    /// The EPUB 2 `guide`'s references, as landmarks (titled by their `title`, else their type).
    let guide: [Link]
    /// `package@xml:lang`.
    let language: String?
    /// The prefixes declared by `package@prefix`.
    let vocabulary: OPFVocabulary
    /// The document, kept alive as long as its elements are used.
    let document: XMLDocument

    init(data: Data, href: String, warnings: (any WarningLogger)?) throws(PublicationParseError) {
        let path = Href.path(of: href) ?? href
        let document = try parseEPUBXML(data, href: path)
        let root = document.root
        guard root.localName == "package" else {
            throw .invalid(href: path, reason: "the package document's root element is <\(root.localName)>, not <package>")
        }
        self.document = document
        self.href = href
        version = root.attribute("version")?.trimmed
        uniqueIdentifierID = root.attribute("unique-identifier")?.trimmed.nilIfEmpty
        language = root.xmlLanguage
        vocabulary = OPFVocabulary(prefixAttribute: root.attribute("prefix"))
        metadata = root.firstChild(named: "metadata")

        var items: [Item] = []
        for element in root.firstChild(named: "manifest")?.children(named: "item") ?? [] {
            guard let rawHref = element.attribute("href")?.trimmed, !rawHref.isEmpty,
                  let resolved = EPUBHref.resolve(rawHref, against: href) else {
                warnings?.log(Warning("a manifest item (id \(element.attribute("id") ?? "none")) has no usable href and was ignored",
                                      severity: .moderate, href: path))
                continue
            }
            items.append(Item(
                id: element.attribute("id")?.trimmed.nilIfEmpty, rawHref: rawHref, href: resolved,
                mediaType: element.attribute("media-type")?.trimmed.nilIfEmpty,
                properties: element.attribute("properties")?.tokens ?? [],
                fallback: element.attribute("fallback")?.trimmed.nilIfEmpty,
                mediaOverlay: element.attribute("media-overlay")?.trimmed.nilIfEmpty))
        }
        self.items = items

        let spine = root.firstChild(named: "spine")
        itemrefs = (spine?.children(named: "itemref") ?? []).compactMap { element in
            guard let idref = element.attribute("idref")?.trimmed.nilIfEmpty else {
                warnings?.log(Warning("a spine itemref has no idref and was ignored", severity: .moderate, href: path))
                return nil
            }
            return Itemref(idref: idref, isLinear: element.attribute("linear")?.trimmed.lowercased() != "no",
                           properties: element.attribute("properties")?.tokens ?? [])
        }
        pageProgressionDirection = spine?.attribute("page-progression-direction")?.trimmed.lowercased()
        spineTOC = spine?.attribute("toc")?.trimmed.nilIfEmpty
        guide = (root.firstChild(named: "guide")?.children(named: "reference") ?? []).compactMap { element in
            guard let rawHref = element.attribute("href")?.trimmed, !rawHref.isEmpty,
                  let resolved = EPUBHref.resolve(rawHref, against: href) else { return nil }
            let type = element.attribute("type")?.trimmed ?? ""
            let title = element.attribute("title")?.trimmed.nilIfEmpty ?? Self.guideTitles[type.lowercased()] ?? type.nilIfEmpty ?? rawHref
            return Link(href: resolved, title: title)
        }
    }

    /// What the guide's reference types are called when a reference has no title.
    static let guideTitles = ["cover": "Cover", "title-page": "Title Page", "toc": "Table of Contents", "index": "Index",
                              "glossary": "Glossary", "acknowledgements": "Acknowledgements", "bibliography": "Bibliography",
                              "colophon": "Colophon", "copyright-page": "Copyright", "dedication": "Dedication",
                              "epigraph": "Epigraph", "foreword": "Foreword", "loi": "List of Illustrations",
                              "lot": "List of Tables", "notes": "Notes", "preface": "Preface", "text": "Start of the Text"]

    /// The EPUB major version, from `package@version`.
    var majorVersion: Int? {
        version.flatMap { $0.split(separator: ".").first }.flatMap { Int($0) }
    }
}

/// The vocabularies of `property` values: the reserved prefixes of EPUB 3 plus those declared
/// by `package@prefix`, so that properties are compared as IRIs whatever prefix a file uses.
struct OPFVocabulary {
    static let metaDefault = "http://idpf.org/epub/vocab/package/meta/#"
    static let dcterms = "http://purl.org/dc/terms/"
    static let media = "http://www.idpf.org/epub/vocab/overlays/#"
    static let rendition = "http://www.idpf.org/vocab/rendition/#"
    static let schema = "http://schema.org/"

    private static let reserved: [String: String] = [
        "a11y": "http://www.idpf.org/epub/vocab/package/a11y/#",
        "dcterms": dcterms,
        "marc": "http://id.loc.gov/vocabulary/",
        "media": media,
        "onix": "http://www.editeur.org/ONIX/book/codelists/current.html#",
        "rendition": rendition,
        "schema": schema,
        "xsd": "http://www.w3.org/2001/XMLSchema#",
        "msv": "http://www.idpf.org/epub/vocab/structure/magazine/#",
        "prism": "http://www.prismstandard.org/specifications/3.0/PRISM_CV_Spec_3.0.htm#",
    ]

    private var prefixes: [String: String]

    /// Parses `prefix="foaf: http://xmlns.com/foaf/spec/ rendition: http://…"`.
    init(prefixAttribute: String?) {
        prefixes = Self.reserved
        let tokens = prefixAttribute?.tokens ?? []
        var index = 0
        while index + 1 < tokens.count {
            let name = tokens[index]
            if name.hasSuffix(":"), name.count > 1 {
                prefixes[String(name.dropLast())] = tokens[index + 1]
                index += 2
            } else {
                index += 1
            }
        }
    }

    /// The IRI of a `property` value: `dcterms:modified` → `http://purl.org/dc/terms/modified`;
    /// unprefixed names take `defaultVocabulary`. Unknown prefixes are kept as written.
    func expand(_ property: String, defaultVocabulary: String = metaDefault) -> String {
        guard let colon = property.firstIndex(of: ":") else { return defaultVocabulary + property }
        let prefix = String(property[..<colon])
        let reference = property[property.index(after: colon)...]
        guard let iri = prefixes[prefix] else { return property }
        return iri + reference
    }
}

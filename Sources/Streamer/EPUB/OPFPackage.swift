import FoundationEssentials
import LibXML
import Shared

/// The parts of a package document (OPF) the parser uses, read tolerantly: elements are
/// matched by local name (EPUB 2 files put the OPF elements in or out of the OPF namespace,
/// with or without an `opf:` prefix).
struct OPFPackage {
    /// A manifest `item`.
    struct Item: Equatable {
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
    struct Itemref: Equatable {
        var idref: String
        var isLinear: Bool
        var properties: [String]
    }

    /// The href of the package document, against which its hrefs are resolved.
    let href: String
    var version: String?
    var uniqueIdentifierID: String?
    /// The `metadata` element (nil when missing, and once the document is released).
    var metadata: XMLElement?
    var items: [Item]
    var itemrefs: [Itemref]
    /// `spine@page-progression-direction`.
    var pageProgressionDirection: String?
    /// `spine@toc`: the id of the NCX.
    var spineTOC: String?
    /// The EPUB 2 `guide`'s references, as landmarks (titled by their `title`, else their type).
    var guide: [Link]
    /// `package@xml:lang`.
    var language: String?
    /// The prefixes declared by `package@prefix`.
    var vocabulary: OPFVocabulary
    /// The document, kept alive as long as its elements are used; nil once released.
    var document: XMLDocument?

    init(data: Data, href: String, warnings: (any WarningLogger)?) throws(PublicationParseError) {
        // A well-formed package is read without its tree; the tree parser repairs the others.
        if let streamed = Self.streamed(data: data, href: href, warnings: warnings) {
            self = streamed
        } else {
            try self.init(tree: data, href: href, warnings: warnings)
        }
    }

    /// The package read from the document's whole tree, which libxml2 repairs when it can.
    init(tree data: Data, href: String, warnings: (any WarningLogger)?) throws(PublicationParseError) {
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
            if let item = Self.item({ element.attribute($0) }, href: href, warnings: warnings) { items.append(item) }
        }
        self.items = items

        let spine = root.firstChild(named: "spine")
        itemrefs = (spine?.children(named: "itemref") ?? []).compactMap { element in
            Self.itemref({ element.attribute($0) }, href: href, warnings: warnings)
        }
        pageProgressionDirection = spine?.attribute("page-progression-direction")?.trimmed.lowercased()
        spineTOC = spine?.attribute("toc")?.trimmed.nilIfEmpty
        guide = (root.firstChild(named: "guide")?.children(named: "reference") ?? []).compactMap { element in
            Self.guideLink({ element.attribute($0) }, href: href)
        }
    }

    /// A manifest `item` from its attributes; nil (with a warning) without a usable href.
    static func item(_ attribute: (String) -> String?, href: String, warnings: (any WarningLogger)?) -> Item? {
        guard let rawHref = attribute("href")?.trimmed, !rawHref.isEmpty,
              let resolved = EPUBHref.resolve(rawHref, against: href) else {
            warnings?.log(Warning("a manifest item (id \(attribute("id") ?? "none")) has no usable href and was ignored",
                                  severity: .moderate, href: Href.path(of: href) ?? href))
            return nil
        }
        return Item(id: attribute("id")?.trimmed.nilIfEmpty, rawHref: rawHref, href: resolved,
                    mediaType: attribute("media-type")?.trimmed.nilIfEmpty,
                    properties: attribute("properties")?.tokens ?? [],
                    fallback: attribute("fallback")?.trimmed.nilIfEmpty,
                    mediaOverlay: attribute("media-overlay")?.trimmed.nilIfEmpty)
    }

    /// A spine `itemref` from its attributes; nil (with a warning) without an idref.
    static func itemref(_ attribute: (String) -> String?, href: String, warnings: (any WarningLogger)?) -> Itemref? {
        guard let idref = attribute("idref")?.trimmed.nilIfEmpty else {
            warnings?.log(Warning("a spine itemref has no idref and was ignored", severity: .moderate,
                                  href: Href.path(of: href) ?? href))
            return nil
        }
        return Itemref(idref: idref, isLinear: attribute("linear")?.trimmed.lowercased() != "no",
                       properties: attribute("properties")?.tokens ?? [])
    }

    /// A guide `reference` as a landmark link; nil without a usable href.
    static func guideLink(_ attribute: (String) -> String?, href: String) -> Link? {
        guard let rawHref = attribute("href")?.trimmed, !rawHref.isEmpty,
              let resolved = EPUBHref.resolve(rawHref, against: href) else { return nil }
        let type = attribute("type")?.trimmed ?? ""
        let title = attribute("title")?.trimmed.nilIfEmpty ?? guideTitles[type.lowercased()] ?? type.nilIfEmpty ?? rawHref
        return Link(href: resolved, title: title)
    }

    /// What the guide's reference types are called when a reference has no title.
    static let guideTitles = ["cover": "Cover", "title-page": "Title Page", "toc": "Table of Contents", "index": "Index",
                              "glossary": "Glossary", "acknowledgements": "Acknowledgements", "bibliography": "Bibliography",
                              "colophon": "Colophon", "copyright-page": "Copyright", "dedication": "Dedication",
                              "epigraph": "Epigraph", "foreword": "Foreword", "loi": "List of Illustrations",
                              "lot": "List of Tables", "notes": "Notes", "preface": "Preface", "text": "Start of the Text"]

    /// This package without its document: once the metadata is read, nothing needs the tree,
    /// which for a book of thousands of manifest items is several megabytes, ten times the
    /// values read from it; releasing it before the reading order is built lowers the peak.
    func releasingDocument() -> OPFPackage {
        var package = self
        package.metadata = nil
        package.document = nil
        return package
    }

    /// The EPUB major version, from `package@version`.
    var majorVersion: Int? {
        version.flatMap { $0.split(separator: ".").first }.flatMap { Int($0) }
    }
}

/// The vocabularies of `property` values: the reserved prefixes of EPUB 3 plus those declared
/// by `package@prefix`, so that properties are compared as IRIs whatever prefix a file uses.
struct OPFVocabulary: Equatable {
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

import FoundationEssentials
import LibXML
import Shared

extension OPFPackage {
    /// The package of a well-formed package document, read element after element: the tree of
    /// a package of thousands of items is several megabytes at once (#28: 2.7 MB for 2,014
    /// items, the opening's peak), where the reader holds a few elements; only the `metadata`
    /// element is kept as a tree, under a copy of the `package` start tag. Nil when the
    /// document is not well-formed or its root is not `package`: the tree parser, which
    /// recovers, then reads it (or reports it) as before. Read the same way as the tree: the
    /// first `metadata`, `manifest`, `spine` and `guide` children of the root, matched by
    /// local name, and their direct children.
    static func streamed(data: Data, href: String, warnings: (any WarningLogger)?) -> OPFPackage? {
        // Warnings wait for the end: a document found malformed half-way is read again.
        let itemWarnings = ListWarningLogger(), itemrefWarnings = ListWarningLogger()
        var package = OPFPackage(href: href)
        var rootRead = false
        let read = try? XMLStreamReader.reading(data) { reader -> Bool in
            var section = ""
            var mediaTypes: [String: String] = [:]
            var seen = Set<String>()
            while reader.nextElement() {
                switch reader.depth {
                case 0:
                    guard reader.localName == "package" else { return false }
                    rootRead = true
                    package.version = reader.attribute("version")?.trimmed
                    package.uniqueIdentifierID = reader.attribute("unique-identifier")?.trimmed.nilIfEmpty
                    package.language = reader.attribute("xml:lang")?.trimmed.nilIfEmpty
                    package.vocabulary = OPFVocabulary(prefixAttribute: reader.attribute("prefix"))
                case 1:
                    let name = reader.localName
                    section = ["metadata", "manifest", "spine", "guide"].contains(name) && seen.insert(name).inserted ? name : ""
                    if section == "metadata" {
                        guard let copy = reader.copyOfCurrentElement() else { return false }
                        package.document = copy
                        package.metadata = copy.root.firstChild(named: "metadata")
                    } else if section == "spine" {
                        package.pageProgressionDirection = reader.attribute("page-progression-direction")?.trimmed.lowercased()
                        package.spineTOC = reader.attribute("toc")?.trimmed.nilIfEmpty
                    }
                case 2:
                    switch (section, reader.localName) {
                    case ("manifest", "item"):
                        if var item = item({ reader.attribute($0) }, href: href, warnings: itemWarnings) {
                            // A few media types for thousands of items: one string each.
                            item.mediaType = item.mediaType.map { mediaTypes[$0, default: $0] }
                            if let type = item.mediaType { mediaTypes[type] = type }
                            package.items.append(item)
                        }
                    case ("spine", "itemref"):
                        if let itemref = itemref({ reader.attribute($0) }, href: href, warnings: itemrefWarnings) {
                            package.itemrefs.append(itemref)
                        }
                    case ("guide", "reference"):
                        if let link = guideLink({ reader.attribute($0) }, href: href) { package.guide.append(link) }
                    default:
                        break
                    }
                default:
                    break
                }
            }
            return !reader.isMalformed && rootRead
        }
        guard read == true else { return nil }
        // In the order the tree parser gives them: the manifest's, then the spine's.
        for warning in itemWarnings.warnings + itemrefWarnings.warnings { warnings?.log(warning) }
        return package
    }

    /// An empty package to be filled by ``streamed(data:href:warnings:)``.
    private init(href: String) {
        self.href = href
        version = nil
        uniqueIdentifierID = nil
        metadata = nil
        items = []
        itemrefs = []
        pageProgressionDirection = nil
        spineTOC = nil
        guide = []
        language = nil
        vocabulary = OPFVocabulary(prefixAttribute: nil)
        document = nil
    }
}

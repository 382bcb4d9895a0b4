import LibXML
import Shared

/// Builds the publication metadata from the OPF `metadata` element, following the Readium
/// mapping (readium/architecture `streamer/parser/metadata.md`) for EPUB 2 and 3.
struct EPUBMetadataParser {
    let package: OPFPackage
    let entries: OPFMetadataEntries
    let warnings: (any WarningLogger)?

    private var packagePath: String { Href.path(of: package.href) ?? package.href }

    init(package: OPFPackage, warnings: (any WarningLogger)?) {
        self.package = package
        entries = OPFMetadataEntries(metadata: package.metadata, vocabulary: package.vocabulary)
        self.warnings = warnings
    }

    /// - Parameters:
    ///   - fallbackTitle: the title used when the package has none (the file name).
    ///   - displayOptions: Apple's `com.apple.ibooks.display-options.xml`, an EPUB 2 fallback
    ///     for fixed layout.
    func parse(fallbackTitle: String, displayOptions: XMLDocument? = nil) -> Metadata {
        var metadata = Metadata()
        metadata.conformsTo = [Manifest.Profile.epub]
        metadata.identifier = uniqueIdentifier()
        metadata.languages = entries.dc("language").compactMap(\.normalizedTextOrNil)

        let mainTitle = titleElements(ofType: "main").first ?? entries.dc("title").first
        if let title = localizedString(for: mainTitle, languages: metadata.languages) {
            metadata.localizedTitle = title
        } else {
            warnings?.log(Warning("the package has no title; using the file name", severity: .minor, href: packagePath))
            metadata.localizedTitle = .nonlocalized(fallbackTitle)
        }
        metadata.localizedSubtitle = localizedString(for: titleElements(ofType: "subtitle").first, languages: metadata.languages)
        metadata.localizedSortAs = (mainTitle.flatMap { entries.refinement(of: $0.attribute("id"), Self.meta("file-as")) }
            ?? mainTitle?.attribute(localName: "file-as")?.trimmed.nilIfEmpty
            ?? entries.legacy["calibre:title_sort"]?.nilIfEmpty).map(LocalizedString.nonlocalized)

        metadata.published = publishedDate()
        metadata.modified = entries.metas(OPFVocabulary.dcterms + "modified").first?.content.nilIfEmpty
            ?? dates(withEvents: ["modification", "modified"]).first
        metadata.description = entries.dc("description").first?.textContent.trimmed.nilIfEmpty
        metadata.subjects = subjects(languages: metadata.languages)
        addContributors(to: &metadata)
        metadata.belongsTo = collections(languages: metadata.languages)
        metadata.duration = ExternalNumbers.duration(entries.metas(OPFVocabulary.media + "duration").first.flatMap { SMILClockValue.seconds($0.content) })
        metadata.numberOfPages = entries.metas(OPFVocabulary.schema + "numberOfPages").first
            .flatMap { Int($0.content) }.flatMap { $0 > 0 ? $0 : nil }

        switch package.pageProgressionDirection {
        case "rtl": metadata.readingProgression = .rtl
        case "ltr": metadata.readingProgression = .ltr
        default: metadata.readingProgression = .auto
        }

        let presentation = EPUBPresentation.packageLevel(entries: entries, displayOptions: displayOptions)
        metadata.otherMetadata["presentation"] = .object(presentation)
        metadata.otherMetadata.set("mediaOverlay", mediaOverlayMetadata())
        return metadata
    }

    /// The IRI of an unprefixed `meta` property.
    static func meta(_ name: String) -> String { OPFVocabulary.metaDefault + name }

    // MARK: - Identifier

    /// The `dc:identifier` that `package@unique-identifier` designates; when that id is missing
    /// or dangling (Debian's live-manual points to a commented-out identifier), the first
    /// `dc:identifier`, with a warning.
    private func uniqueIdentifier() -> String? {
        let identifiers = entries.dc("identifier")
        if let id = package.uniqueIdentifierID,
           let element = identifiers.first(where: { $0.attribute("id")?.trimmed == id }) {
            return element.normalizedTextOrNil
        }
        guard let first = identifiers.first(where: { $0.normalizedTextOrNil != nil })?.normalizedTextOrNil else {
            warnings?.log(Warning("the package has no dc:identifier", severity: .moderate, href: packagePath))
            return nil
        }
        if let id = package.uniqueIdentifierID {
            warnings?.log(Warning("package@unique-identifier \"\(id)\" designates no dc:identifier; using the first one (\(first))",
                                  severity: .moderate, href: packagePath))
        } else {
            warnings?.log(Warning("the package has no unique-identifier attribute; using the first dc:identifier",
                                  severity: .minor, href: packagePath))
        }
        return first
    }

    // MARK: - Titles

    /// The `dc:title` elements refined with this `title-type`, in `display-seq` order.
    private func titleElements(ofType type: String) -> [XMLElement] {
        let titles = entries.dc("title").filter { title in
            entries.refinement(of: title.attribute("id"), Self.meta("title-type"))?.lowercased() == type
        }
        func sequence(_ element: XMLElement) -> Int {
            entries.refinement(of: element.attribute("id"), Self.meta("display-seq")).flatMap { Int($0) } ?? Int.max
        }
        return titles.enumerated().sorted { lhs, rhs in
            (sequence(lhs.element), lhs.offset) < (sequence(rhs.element), rhs.offset)
        }.map(\.element)
    }

    /// The text of an element with its `alternate-script` refinements as translations, keyed
    /// by language (the element's `xml:lang`, else the package's, else the first language).
    private func localizedString(for element: XMLElement?, languages: [String]) -> LocalizedString? {
        guard let element, let text = element.normalizedTextOrNil else { return nil }
        var translations: [String: String] = [:]
        for alternate in entries.refinements(of: element.attribute("id"), Self.meta("alternate-script")) {
            guard let value = alternate.content.nilIfEmpty, let language = alternate.element.xmlLanguage else { continue }
            translations[language] = value
        }
        guard !translations.isEmpty else { return .nonlocalized(text) }
        translations[element.xmlLanguage ?? package.language ?? languages.first ?? "und"] = text
        return .localized(translations)
    }

    // MARK: - Dates

    /// `dc:date` without event or with a publication event (EPUB 2 `opf:event`), as written.
    private func publishedDate() -> String? {
        let candidates = entries.dc("date").filter { element in
            guard let event = element.attribute(localName: "event")?.trimmed.lowercased() else { return true }
            return ["publication", "published", "issued", "original-publication"].contains(event)
        }
        return candidates.first?.normalizedTextOrNil
    }

    private func dates(withEvents events: Set<String>) -> [String] {
        entries.dc("date").filter { element in
            element.attribute(localName: "event").map { events.contains($0.trimmed.lowercased()) } ?? false
        }.compactMap(\.normalizedTextOrNil)
    }

    // MARK: - Subjects

    private func subjects(languages: [String]) -> [Subject] {
        let elements = entries.dc("subject")
        // A single subject holding a `,`/`;` list is a list of subjects (Readium's rule).
        if elements.count == 1, let text = elements[0].normalizedTextOrNil {
            let names = text.split(whereSeparator: { $0 == "," || $0 == ";" }).map { $0.trimmed }.filter { !$0.isEmpty }
            if names.count > 1 { return names.map { Subject(name: .nonlocalized($0)) } }
        }
        return elements.compactMap { element in
            guard let name = localizedString(for: element, languages: languages) else { return nil }
            let id = element.attribute("id")
            return Subject(name: name,
                           scheme: entries.refinement(of: id, Self.meta("authority"))
                               ?? element.attribute(localName: "authority")?.trimmed.nilIfEmpty,
                           code: entries.refinement(of: id, Self.meta("term"))
                               ?? element.attribute(localName: "term")?.trimmed.nilIfEmpty)
        }
    }

    // MARK: - Contributors

    /// MARC relator codes that have their own list in the metadata.
    private static let roleLists: [String: WritableKeyPath<Metadata, [Contributor]> & Sendable] = [
        "aut": \.authors, "trl": \.translators, "edt": \.editors, "art": \.artists, "ill": \.illustrators,
        "clr": \.colorists, "nrt": \.narrators, "pbl": \.publishers,
    ]

    private func addContributors(to metadata: inout Metadata) {
        var elements = entries.dcInOrder.filter { ["creator", "contributor", "publisher"].contains($0.name) }
        // EPUB 3 also allows <meta property="dcterms:creator"> and friends.
        for name in ["creator", "contributor", "publisher"] {
            elements += entries.metas(OPFVocabulary.dcterms + name).map { (name, $0.element) }
        }
        for (kind, element) in elements {
            guard let name = localizedString(for: element, languages: metadata.languages) else { continue }
            let id = element.attribute("id")
            var roles: [String] = []
            if let role = element.attribute(localName: "role")?.trimmed.lowercased().nilIfEmpty { roles.append(role) }
            for meta in entries.refinements(of: id, Self.meta("role")) {
                let role = meta.content.lowercased()
                if !role.isEmpty, !roles.contains(role) { roles.append(role) }
            }
            let sortAs = element.attribute(localName: "file-as")?.trimmed.nilIfEmpty
                ?? entries.refinement(of: id, Self.meta("file-as"))
            let contributor = Contributor(name: name, sortAs: sortAs.map(LocalizedString.nonlocalized))

            // Roles with their own list put the contributor there (in each, when several);
            // other roles make a plain contributor that keeps them.
            let listed = roles.compactMap { Self.roleLists[$0] }
            let otherRoles = roles.filter { Self.roleLists[$0] == nil }
            // The same person listed twice (a dc:creator and a dcterms:creator meta, or the
            // element repeated, one with a file-as) is one name, kept where it came first.
            for list in listed { Self.add(contributor, to: &metadata[keyPath: list]) }
            if listed.isEmpty {
                switch kind {
                case "creator" where otherRoles.isEmpty: Self.add(contributor, to: &metadata.authors)
                case "publisher" where otherRoles.isEmpty: Self.add(contributor, to: &metadata.publishers)
                default:
                    var withRoles = contributor
                    withRoles.roles = otherRoles
                    metadata.contributors.append(withRoles)
                }
            } else if !otherRoles.isEmpty {
                var withRoles = contributor
                withRoles.roles = otherRoles
                metadata.contributors.append(withRoles)
            }
        }
    }

    /// Appends `contributor` unless the list has the same name; a sort key the first lacked is kept.
    private static func add(_ contributor: Contributor, to list: inout [Contributor]) {
        let name = contributor.name.trimmed.lowercased()
        guard let index = list.firstIndex(where: { $0.name.trimmed.lowercased() == name }) else {
            list.append(contributor)
            return
        }
        if list[index].localizedSortAs == nil { list[index].localizedSortAs = contributor.localizedSortAs }
    }

    // MARK: - Collections

    /// EPUB 3 `belongs-to-collection` (series when refined with `collection-type` "series")
    /// and calibre's EPUB 2 series metas.
    private func collections(languages: [String]) -> [String: [Contributor]] {
        var result: [String: [Contributor]] = [:]
        for meta in entries.metas(Self.meta("belongs-to-collection")) {
            guard let name = localizedString(for: meta.element, languages: languages) else { continue }
            let type = entries.refinement(of: meta.id, Self.meta("collection-type"))?.lowercased()
            let collection = Contributor(
                name: name,
                identifier: entries.refinement(of: meta.id, OPFVocabulary.dcterms + "identifier"),
                sortAs: entries.refinement(of: meta.id, Self.meta("file-as")).map(LocalizedString.nonlocalized),
                position: entries.refinement(of: meta.id, Self.meta("group-position")).flatMap { ExternalNumbers.seriesPosition(Double($0)) })
            result[type == "series" ? "series" : "collection", default: []].append(collection)
        }
        if let series = entries.legacy["calibre:series"]?.nilIfEmpty {
            let position = entries.legacy["calibre:series_index"].flatMap { ExternalNumbers.seriesPosition(Double($0)) }
            result["series", default: []].append(Contributor(name: .nonlocalized(series), position: position))
        }
        return result
    }
}

import FoundationEssentials
import Shared

/// Lectern's own JSON of annotations: every field of ``Annotation``, tombstones, sealed and
/// withheld quotes included, so that an export read back is the same annotations.
///
/// ```json
/// { "format": "lectern-annotations", "version": 1, "generated": "2026-01-02T10:11:12Z",
///   "publications": [ { "identifier": "urn:isbn:…", "title": "…", "authors": ["…"],
///     "annotations": [ { "id": "…", "created": "…", "modified": "…", "color": "yellow",
///       "style": "solid", "note": "…", "tags": [], "target": { "href": "…", "textRange": [3, 9],
///       "quote": { "exact": "…", "prefix": "…", "suffix": "…" }, … } } ] } ] }
/// ```
/// Dates are ISO 8601 in UTC to the microsecond; ranges are `[start, end)` pairs.
enum LecternAnnotationJSON {
    static let formatName = "lectern-annotations"
    static let version = 1

    static func write(_ publications: [AnnotatedPublication], generated: Date) -> [UInt8] {
        var root = JSONObject()
        root.append("format", .string(formatName))
        root.append("version", .int(version))
        root.append("generated", .string(AnnotationDates.iso8601(generated)))
        var bytes = AnnotationJSONLayout.object(root, key: "publications", items: publications.map(publicationBytes))
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// A publication, its annotations one a line (see ``AnnotationJSONLayout``).
    private static func publicationBytes(_ publication: AnnotatedPublication) -> [UInt8] {
        var object = JSONObject()
        object.append("identifier", publication.identifier.map(JSONValue.string))
        object.append("title", .string(publication.title))
        object.append("authors", .array(publication.authors.map(JSONValue.string)))
        object.append("koreaderDocumentDigest", publication.koreaderDocumentDigest.map(JSONValue.string))
        return AnnotationJSONLayout.object(object, key: "annotations",
                                           items: publication.annotations.map { AnnotationJSONLayout.bytes(annotationValue($0)) })
    }

    private static func annotationValue(_ annotation: Annotation) -> JSONValue {
        var object = JSONObject()
        object.append("id", .string(annotation.id))
        object.append("created", .string(AnnotationDates.iso8601(annotation.created)))
        object.append("modified", .string(AnnotationDates.iso8601(annotation.modified)))
        if annotation.deleted { object.append("deleted", .bool(true)) }
        object.append("color", .string(annotation.color.rawValue))
        object.append("style", .string(annotation.style.rawValue))
        object.append("note", annotation.note.map(JSONValue.string))
        object.append("tags", .array(annotation.tags.map(JSONValue.string)))
        object.append("target", targetValue(annotation.target))
        return .object(object)
    }

    private static func targetValue(_ target: AnnotationTarget) -> JSONValue {
        var object = JSONObject()
        object.append("href", .string(target.href))
        object.append("type", target.type.map(JSONValue.string))
        object.append("progression", target.progression.map(JSONValue.double))
        object.append("totalProgression", target.totalProgression.map(JSONValue.double))
        object.append("textRange", target.textRange.map(rangeValue))
        if let quote = target.quote {
            object.append("quote", .object(JSONObject(["exact": .string(quote.exact), "prefix": .string(quote.prefix),
                                                       "suffix": .string(quote.suffix)])))
        }
        object.append("cssSelector", target.cssSelector.map(JSONValue.string))
        object.append("cssTextRange", target.cssTextRange.map(rangeValue))
        object.append("cfi", target.cfi.map(JSONValue.string))
        object.append("page", target.page.map(JSONValue.int))
        object.append("headings", .array(target.headings.map(JSONValue.string)))
        if target.quoteIsSealed { object.append("quoteIsSealed", .bool(true)) }
        if target.quoteWithheld { object.append("quoteWithheld", .bool(true)) }
        object.append("xpointerStart", target.xpointerStart.map(JSONValue.string))
        object.append("xpointerEnd", target.xpointerEnd.map(JSONValue.string))
        return .object(object)
    }

    private static func rangeValue(_ range: Range<Int>) -> JSONValue {
        .array([.int(range.lowerBound), .int(range.upperBound)])
    }

    // MARK: Reading

    /// Whether `root` is Lectern's JSON.
    static func recognizes(_ root: JSONValue) -> Bool {
        root["format"]?.string == formatName
    }

    static func read(_ root: JSONValue) throws(AnnotationImportError) -> [AnnotatedPublication] {
        if let version = root["version"]?.int, version > Self.version {
            throw .invalidStructure("it was written by a newer Lectern (format version \(version))")
        }
        guard let publications = root["publications"]?.array else {
            throw .invalidStructure("it has no \"publications\" array")
        }
        return publications.enumerated().map { index, value in publication(value, index: index) }
    }

    private static func publication(_ value: JSONValue, index: Int) -> AnnotatedPublication {
        var skipped: [String] = []
        var annotations: [Annotation] = []
        let items = value["annotations"]?.array ?? []
        annotations.reserveCapacity(items.count)
        for (position, item) in items.enumerated() {
            switch annotation(item) {
            case .success(let annotation): annotations.append(annotation)
            case .failure(let problem): skipped.append("annotation \(position + 1): \(problem.reason)")
            }
        }
        if value["annotations"]?.array == nil { skipped.append("publication \(index + 1) has no \"annotations\" array") }
        return AnnotatedPublication(identifier: value["identifier"]?.string, title: value["title"]?.string ?? "",
                                    authors: value["authors"]?.strings ?? [], annotations: annotations,
                                    koreaderDocumentDigest: value["koreaderDocumentDigest"]?.string, skipped: skipped)
    }

    private static func annotation(_ json: JSONValue) -> Result<Annotation, SkipReason> {
        let value = JSONFields(json)
        guard let id = value["id"]?.string, !id.isEmpty else { return .failure(SkipReason("it has no id")) }
        let targetValue = JSONFields(value["target"])
        guard let href = targetValue["href"]?.string else {
            return .failure(SkipReason("it has no target href"))
        }
        var target = AnnotationTarget(href: href)
        target.type = targetValue["type"]?.string
        target.progression = targetValue["progression"]?.double
        target.totalProgression = targetValue["totalProgression"]?.double
        target.textRange = range(targetValue["textRange"])
        if let quote = targetValue["quote"], let exact = quote["exact"]?.string {
            target.quote = TextQuote(exact: exact, prefix: quote["prefix"]?.string ?? "", suffix: quote["suffix"]?.string ?? "")
        }
        target.cssSelector = targetValue["cssSelector"]?.string
        target.cssTextRange = range(targetValue["cssTextRange"])
        target.cfi = targetValue["cfi"]?.string
        target.page = targetValue["page"]?.int
        target.headings = targetValue["headings"]?.strings ?? []
        target.quoteIsSealed = targetValue["quoteIsSealed"]?.bool ?? false
        target.quoteWithheld = targetValue["quoteWithheld"]?.bool ?? false
        target.xpointerStart = targetValue["xpointerStart"]?.string
        target.xpointerEnd = targetValue["xpointerEnd"]?.string
        let created = value["created"]?.string.flatMap(AnnotationDates.parseISO8601) ?? Date(timeIntervalSince1970: 0)
        return .success(Annotation(id: id, target: target,
                                   color: value["color"]?.string.flatMap(HighlightColor.init(rawValue:)) ?? .yellow,
                                   style: value["style"]?.string.flatMap(HighlightStyle.init(rawValue:)) ?? .solid,
                                   note: value["note"]?.string, tags: value["tags"]?.strings ?? [], created: created,
                                   modified: value["modified"]?.string.flatMap(AnnotationDates.parseISO8601),
                                   deleted: value["deleted"]?.bool ?? false))
    }

    /// A `[start, end]` pair, when it is one with 0 ≤ start ≤ end: anything else is no range
    /// (building a `Range` of a reversed pair would trap).
    static func range(_ value: JSONValue?) -> Range<Int>? {
        guard let pair = value?.array, pair.count == 2, let start = pair[0].int, let end = pair[1].int,
              start >= 0, start <= end else { return nil }
        return start..<end
    }
}

/// Why one entry of an imported file was skipped.
struct SkipReason: Error {
    let reason: String

    init(_ reason: String) {
        self.reason = reason
    }
}

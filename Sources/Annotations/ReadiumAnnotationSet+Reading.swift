import FoundationEssentials
import Shared

/// Reading a Readium Annotation Set (see ReadiumAnnotationSet.swift for the document followed),
/// tolerant of what other applications write: a single annotation instead of a set, a target
/// given as a bare IRI, one selector or body instead of an array, the older `tag` string and
/// CSS colours.
extension ReadiumAnnotationSet {
    /// Whether `root` is a Readium set, an array of them, or a single annotation.
    static func recognizes(_ root: JSONValue) -> Bool {
        switch root["type"]?.string {
        case "AnnotationSet", "Annotation": return true
        default: break
        }
        guard let elements = root.array, !elements.isEmpty else { return false }
        return elements.allSatisfy { $0["type"]?.string == "AnnotationSet" }
    }

    static func read(_ root: JSONValue) throws(AnnotationImportError) -> [AnnotatedPublication] {
        if let sets = root.array { return sets.map(publication) }
        if root["type"]?.string == "Annotation" {
            return [publication(.object(JSONObject(["type": .string("AnnotationSet"), "items": .array([root])])))]
        }
        guard root["items"]?.array != nil else { throw .invalidStructure("the annotation set has no \"items\" array") }
        return [publication(root)]
    }

    private static func publication(_ set: JSONValue) -> AnnotatedPublication {
        let about = set["about"]
        let fallbackDate = set["generated"]?.string.flatMap(AnnotationDates.parseISO8601) ?? Date(timeIntervalSince1970: 0)
        var annotations: [Annotation] = []
        var skipped: [String] = []
        let items = set["items"]?.array ?? []
        annotations.reserveCapacity(items.count)
        for (position, item) in items.enumerated() {
            switch annotation(item, fallbackDate: fallbackDate) {
            case .success(let annotation): annotations.append(annotation)
            case .failure(let problem): skipped.append("item \(position + 1): \(problem.reason)")
            }
        }
        if set["items"]?.array == nil { skipped.append("a set has no \"items\" array") }
        return AnnotatedPublication(identifier: about?["dc:identifier"]?.strings.first, title: text(about?["dc:title"]) ?? "",
                                    authors: about?["dc:creator"]?.strings ?? [], annotations: annotations, skipped: skipped)
    }

    /// A string, or the first value of a language map (`{"en": "…"}`) as some write titles.
    private static func text(_ value: JSONValue?) -> String? {
        if let string = value?.string { return string }
        return value?.object?.members.first?.value.string
    }

    private static func annotation(_ json: JSONValue, fallbackDate: Date) -> Result<Annotation, SkipReason> {
        guard json.object != nil else { return .failure(SkipReason("it is not an object")) }
        let item = JSONFields(json)
        let targetJSON = item["target"]?.array?.first ?? item["target"]
        let targetValue = JSONFields(targetJSON)
        guard let source = targetJSON?.string ?? targetValue["source"]?.string else {
            return .failure(SkipReason("it has no target source"))
        }
        var target = AnnotationTarget(href: source)
        let selectors = targetValue["selector"].map { $0.array ?? [$0] } ?? []
        for selector in selectors { apply(JSONFields(selector), to: &target) }
        if let meta = targetValue["meta"] {
            target.headings = meta["headings"]?.array?.compactMap { $0["txt"]?.string } ?? []
            if let page = meta["page"]?.int, page > 0 { target.page = page }
        }
        let bodyJSON = item["body"]?.array?.first ?? item["body"]
        if bodyJSON == nil, item["motivation"]?.string == "bookmarking" {
            return .failure(SkipReason("it is a bookmark, not a highlight"))
        }
        let body = JSONFields(bodyJSON)
        let created = item["created"]?.string.flatMap(AnnotationDates.parseISO8601) ?? fallbackDate
        let note = body["value"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        var tags = body["tags"]?.strings ?? []
        if tags.isEmpty, let tag = body["tag"]?.string { tags = [tag] }
        let identifier = item["id"]?.string.map(lecternIdentifier) ?? ""
        return .success(Annotation(id: identifier.isEmpty ? UUID().uuidString.lowercased() : identifier, target: target,
                                   color: color(body["color"]?.string), style: style(body["highlight"]?.string),
                                   note: note, tags: tags, created: created,
                                   modified: item["modified"]?.string.flatMap(AnnotationDates.parseISO8601)))
    }

    private static func apply(_ selector: JSONFields, to target: inout AnnotationTarget) {
        switch selector["type"]?.string {
        case "TextQuoteSelector":
            guard let exact = selector["exact"]?.string else { return }
            target.quote = TextQuote(exact: exact, prefix: selector["prefix"]?.string ?? "", suffix: selector["suffix"]?.string ?? "")
        case "FragmentSelector":
            guard let value = selector["value"]?.string else { return }
            let conformsTo = selector["conformsTo"]?.string ?? ""
            if conformsTo.contains("epub-cfi") || value.hasPrefix("epubcfi(") {
                target.cfi = value
            } else if conformsTo.contains("rfc8118") || conformsTo.contains("rfc3778"), let page = pdfPage(value) {
                // A PDF fragment says the resource is a PDF: keep that, so that it is written again.
                target.page = target.page ?? page
                target.type = target.type ?? "application/pdf"
            }
        case "CssSelector":
            guard let value = selector["value"]?.string else { return }
            let range = textPosition(JSONFields(selector["refinedBy"]))
            if value == wholeResourceSelector, let range {
                target.textRange = range
            } else {
                target.cssSelector = value
                target.cssTextRange = range
            }
        case "TextPositionSelector":
            target.textRange = textPosition(selector) ?? target.textRange
        case "ProgressionSelector":
            if let value = selector["value"]?.double, (0...1).contains(value) { target.progression = value }
        default:
            break
        }
    }

    /// A `TextPositionSelector`'s `[start, end)`, when it is one with 0 ≤ start ≤ end.
    private static func textPosition(_ selector: JSONFields) -> Range<Int>? {
        guard selector["type"]?.string == "TextPositionSelector" else { return nil }
        return LecternAnnotationJSON.range(.array([selector["start"] ?? .null, selector["end"] ?? .null]))
    }

    /// The page of an RFC 8118 fragment (`page=10&viewrect=…`).
    private static func pdfPage(_ fragment: String) -> Int? {
        for parameter in fragment.split(separator: "&") where parameter.hasPrefix("page=") {
            if let page = Int(parameter.dropFirst(5)), page > 0 { return page }
        }
        return nil
    }

    /// Lectern's id of an item: the UUID of a `urn:uuid:` URN, lower case; another id as it is.
    static func lecternIdentifier(_ id: String) -> String {
        let prefix = "urn:uuid:"
        guard id.lowercased().hasPrefix(prefix) else { return id }
        return String(id.dropFirst(prefix.count)).lowercased()
    }

    /// The palette colour of a `color`: one of the six names, or (as the first version of
    /// the spec allowed) a CSS colour, taken to the nearest of the six; yellow otherwise.
    static func color(_ value: String?) -> HighlightColor {
        guard let value = value?.lowercased() else { return .yellow }
        if let named = HighlightColor(rawValue: value) { return named }
        guard value.hasPrefix("#"), value.count == 7, let rgb = Int(value.dropFirst(), radix: 16) else {
            return ["red": .pink, "magenta": .pink, "violet": .purple, "cyan": .blue, "lime": .green][value] ?? .yellow
        }
        let red = (rgb >> 16) & 0xFF, green = (rgb >> 8) & 0xFF, blue = rgb & 0xFF
        let palette: [(HighlightColor, Int, Int, Int)] = [(.yellow, 255, 235, 59), (.green, 76, 175, 80), (.blue, 33, 150, 243),
                                                          (.pink, 233, 30, 99), (.orange, 255, 152, 0), (.purple, 156, 39, 176)]
        return palette.min { first, second in
            distance(first, red, green, blue) < distance(second, red, green, blue)
        }?.0 ?? .yellow
    }

    private static func distance(_ entry: (HighlightColor, Int, Int, Int), _ red: Int, _ green: Int, _ blue: Int) -> Int {
        let dr = entry.1 - red, dg = entry.2 - green, db = entry.3 - blue
        return dr * dr + dg * dg + db * db
    }

    /// The style of a `highlight`; `outline`, which Lectern does not draw, is the default solid.
    private static func style(_ value: String?) -> HighlightStyle {
        value.flatMap(HighlightStyle.init(rawValue:)) ?? .solid
    }
}

// Follows "Readium Annotations" (https://github.com/readium/annotations, README.md at commit
// 8129f0a of 2026-01-22, "Update the text fragment selector"; its Selectors.md for the EPUB CFI
// FragmentSelector), a profile of the W3C Web Annotation Data Model (REC 2017-02-23):
// an AnnotationSet (`@context`, `id`, `type`, `generator`, `generated`, `about` with
// `dc:identifier`, `dc:title`, `dc:creator`; `items`), each item an Annotation (`id`,
// `type`, `motivation`, `created`, `modified`, `target` {`source`, `selector`, `meta`
// {`headings` [{`level`, `txt`}], `page`}}, `body` {`type` TextualBody, `value`, `format`,
// `color`, `highlight`, `tags`}).
import FoundationEssentials
import Shared

/// The Readium Annotation Set (`application/rd-annotations+json`, `.annotation`).
///
/// Selectors written, each when the target has what it needs: `TextQuoteSelector` (exact,
/// prefix, suffix; left out when the quote is nil — a protected book's withheld quote), a
/// `FragmentSelector` conforming to EPUB CFI, a `CssSelector` refined by a
/// `TextPositionSelector`, a `ProgressionSelector`, and for PDF a `FragmentSelector` of RFC
/// 8118 (`page=N`).
///
/// Lectern's character range (``AnnotationTarget/textRange``) is written as a `CssSelector`
/// `body` refined by a `TextPositionSelector`: positions in the text of the whole resource, as
/// the spec's refinement reads, though counted as Lectern lays the text out (grapheme
/// clusters). Read back, such a range is only a hint: ``QuoteAnchoring`` checks it against the
/// quote. Tombstones are not written (the format has none). Several publications are written
/// as a JSON array of sets (one set per publication, as the spec has them).
public enum ReadiumAnnotationSet {
    public static let mediaType = "application/rd-annotations+json"
    public static let fileExtension = "annotation"
    static let context = "http://www.w3.org/ns/anno.jsonld"
    static let cfiConformance = "http://www.idpf.org/epub/linking/cfi/epub-cfi.html"
    static let pdfConformance = "https://www.rfc-editor.org/rfc/rfc8118"
    /// The `CssSelector` whose `TextPositionSelector` holds Lectern's range in the resource.
    static let wholeResourceSelector = "body"

    static func write(_ publications: [AnnotatedPublication], generated: Date) -> [UInt8] {
        let sets = publications.map { set($0, generated: generated) }
        var bytes = sets.count == 1 ? sets[0] : AnnotationJSONLayout.array(sets)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// One set, its items one a line (see ``AnnotationJSONLayout``).
    static func set(_ publication: AnnotatedPublication, generated: Date) -> [UInt8] {
        let items = publication.annotations.filter { !$0.deleted }
        var object = JSONObject()
        object.append("@context", .string(context))
        object.append("id", .string(setIdentifier(publication, items: items)))
        object.append("type", .string("AnnotationSet"))
        object.append("generator", .object(JSONObject(["id": .string("urn:lectern"), "type": .string("Software"),
                                                       "name": .string("Lectern")])))
        object.append("generated", .string(AnnotationDates.iso8601(generated)))
        var about = JSONObject()
        if let identifier = publication.identifier { about.append("dc:identifier", .array([.string(identifier)])) }
        about.append("dc:title", .string(publication.title))
        if !publication.authors.isEmpty { about.append("dc:creator", .array(publication.authors.map(JSONValue.string))) }
        object.append("about", .object(about))
        return AnnotationJSONLayout.object(object, key: "items", items: items.map { AnnotationJSONLayout.bytes(item($0)) })
    }

    static func item(_ annotation: Annotation) -> JSONValue {
        var object = JSONObject()
        object.append("@context", .string(context))
        object.append("id", .string(annotationIdentifier(annotation.id)))
        object.append("type", .string("Annotation"))
        object.append("motivation", .string(annotation.note.map { $0.isEmpty } == false ? "commenting" : "highlighting"))
        object.append("created", .string(AnnotationDates.iso8601(annotation.created)))
        object.append("modified", .string(AnnotationDates.iso8601(annotation.modified)))
        object.append("target", target(annotation.target))
        var body = JSONObject()
        body.append("type", .string("TextualBody"))
        body.append("value", .string(annotation.note ?? ""))
        body.append("format", .string("text/markdown"))
        body.append("color", .string(annotation.color.rawValue))
        body.append("highlight", .string(annotation.style.rawValue))
        if !annotation.tags.isEmpty { body.append("tags", .array(annotation.tags.map(JSONValue.string))) }
        object.append("body", .object(body))
        return .object(object)
    }

    private static func target(_ target: AnnotationTarget) -> JSONValue {
        var selectors: [JSONValue] = []
        if let quote = target.quote {
            var selector = JSONObject(["type": .string("TextQuoteSelector"), "exact": .string(quote.exact)])
            if !quote.prefix.isEmpty { selector.append("prefix", .string(quote.prefix)) }
            if !quote.suffix.isEmpty { selector.append("suffix", .string(quote.suffix)) }
            selectors.append(.object(selector))
        }
        if let cfi = target.cfi {
            selectors.append(.object(JSONObject(["type": .string("FragmentSelector"), "conformsTo": .string(cfiConformance),
                                                 "value": .string(cfi)])))
        }
        if let page = target.page, target.type == "application/pdf" {
            selectors.append(.object(JSONObject(["type": .string("FragmentSelector"), "conformsTo": .string(pdfConformance),
                                                 "value": .string("page=\(page)")])))
        }
        if let css = target.cssSelector {
            selectors.append(cssSelector(css, refinedBy: target.cssTextRange))
        }
        if let range = target.textRange {
            selectors.append(cssSelector(wholeResourceSelector, refinedBy: range))
        }
        if let progression = target.progression {
            selectors.append(.object(JSONObject(["type": .string("ProgressionSelector"), "value": .double(progression)])))
        }
        var object = JSONObject()
        object.append("source", .string(target.href))
        object.append("selector", .array(selectors))
        var meta = JSONObject()
        if !target.headings.isEmpty {
            meta.append("headings", .array(target.headings.enumerated().map { level, text in
                .object(JSONObject(["level": .int(level + 1), "txt": .string(text)]))
            }))
        }
        if let page = target.page { meta.append("page", .string(String(page))) }
        if !meta.isEmpty { object.append("meta", .object(meta)) }
        return .object(object)
    }

    private static func cssSelector(_ value: String, refinedBy range: Range<Int>?) -> JSONValue {
        var selector = JSONObject(["type": .string("CssSelector"), "value": .string(value)])
        if let range {
            selector.append("refinedBy", .object(JSONObject(["type": .string("TextPositionSelector"),
                                                             "start": .int(range.lowerBound), "end": .int(range.upperBound)])))
        }
        return .object(selector)
    }

    /// `urn:uuid:` and the id when it is a bare UUID (Lectern's ids); an id that is already a
    /// URI (read from another application) as it is.
    static func annotationIdentifier(_ id: String) -> String {
        id.contains(":") ? id : "urn:uuid:" + id
    }

    /// A UUID URN derived from the publication and its annotations' ids, so that exporting
    /// the same annotations twice writes the same set (a random one would make every export
    /// differ).
    static func setIdentifier(_ publication: AnnotatedPublication, items: [Annotation]) -> String {
        "urn:uuid:" + StableHash.uuid(of: [publication.identifier ?? "", publication.title] + items.map(\.id))
    }
}

/// FNV-1a over UTF-8, 64 bits: stable across runs and machines, unlike `Hasher`.
struct StableHash {
    private(set) var value: UInt64

    init(seed: UInt64) {
        value = seed
    }

    mutating func add(_ text: String) {
        for byte in text.utf8 {
            value = (value ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        value = (value ^ 0xff) &* 0x100_0000_01b3
    }

    /// A UUID (version 8: made by other means, RFC 9562) derived from `texts`: the same texts,
    /// the same UUID, lower case.
    static func uuid(of texts: [String]) -> String {
        var high = StableHash(seed: 0xcbf2_9ce4_8422_2325)
        var low = StableHash(seed: 0x8422_2325_cbf2_9ce4)
        for text in texts {
            high.add(text)
            low.add(text)
        }
        var digits = Array(String(high.value, radix: 16).leftPadded(16) + String(low.value, radix: 16).leftPadded(16))
        digits[12] = "8"
        digits[16] = ["8", "9", "a", "b"][(digits[16].hexDigitValue ?? 0) & 3]
        let text = String(digits)
        var parts: [Substring] = []
        var start = text.startIndex
        for length in [8, 4, 4, 4, 12] {
            let end = text.index(start, offsetBy: length)
            parts.append(text[start..<end])
            start = end
        }
        return parts.joined(separator: "-")
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

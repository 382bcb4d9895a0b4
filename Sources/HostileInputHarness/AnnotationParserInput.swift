import Annotations
import FoundationEssentials

/// The three annotation parsers on the bytes directly, one fuzz target each (#27): nothing but
/// the read — no anchoring, no export (``AnnotationsInput`` does the whole import) — so that
/// each runs at a text parser's speed.
///
/// They go through ``AnnotationImporter/read(_:fileName:timeZone:)``, the only public entry:
/// its choice of parser is a look at the first byte and one JSON member, and the file name
/// given here sends KOReader's Lua to its parser whatever the bytes start with.
public enum AnnotationParserInput: Sendable {
    /// A Readium Annotation Set (`.annotation`), the importer told by the content.
    case readium
    /// Lectern's own JSON export.
    case lecternJSON
    /// KOReader's `metadata.*.lua`, a Lua table literal.
    case koreaderLua

    static let utc = TimeZone(identifier: "UTC") ?? .current

    /// The name the file arrives under, as `lectern annotations import` would see it.
    var fileName: String {
        switch self {
        case .readium: "book.annotation"
        case .lecternJSON: "annotations.json"
        case .koreaderLua: "metadata.epub.lua"
        }
    }

    /// Reads `bytes`; a refusal must be one of the importer's typed errors with a sentence for
    /// the person, and what is read must hold together.
    public func consume(_ bytes: [UInt8]) {
        let publications: [AnnotatedPublication]
        do {
            publications = try AnnotationImporter.read(Data(bytes), fileName: fileName, timeZone: Self.utc)
        } catch {
            HarnessInvariant.check(!error.message.isEmpty, "an import error without a message: \(error)")
            return
        }
        for annotation in publications.flatMap(\.annotations) {
            for range in [annotation.target.textRange, annotation.target.cssTextRange].compactMap({ $0 }) {
                HarnessInvariant.check(range.lowerBound >= 0, "a text range \(range) starts before its element")
            }
        }
    }
}

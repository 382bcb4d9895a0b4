import Annotations
import FoundationEssentials

/// A file of annotations to import — a Readium Annotation Set, Lectern's JSON or KOReader's
/// `metadata.*.lua` (the importer tells them apart by their content) — read, then used as
/// an import uses it: every annotation anchored in a chapter, every export format written,
/// and Lectern's JSON read back, which must give the same annotations.
public enum AnnotationsInput {
    static let chapter = AnchoringText("It was the best of times, it was the worst of times, café de l'époque, 👩‍👩‍👧.")
    static let utc = TimeZone(identifier: "UTC") ?? .current

    public static func consume(_ bytes: [UInt8]) {
        let publications: [AnnotatedPublication]
        do {
            publications = try AnnotationImporter.read(Data(bytes), fileName: "metadata.epub.lua", timeZone: utc)
        } catch {
            _ = error.message
            return
        }
        for annotation in publications.flatMap(\.annotations) {
            let range = QuoteAnchoring.locate(annotation.target, in: chapter).range
            HarnessInvariant.check(range.map { $0.lowerBound >= 0 && $0.upperBound <= chapter.count } ?? true,
                                   "an anchored range \(String(describing: range)) is outside the text")
        }
        for format in AnnotationExportFormat.allCases {
            _ = AnnotationExporter.export(publications, as: format, generated: Date(timeIntervalSince1970: 0))
        }
        let lossless = publications.map { publication in
            var copy = publication
            copy.skipped = []
            return copy
        }
        let json = AnnotationExporter.export(lossless, as: .json, generated: Date(timeIntervalSince1970: 0))
        let again = try? AnnotationImporter.read(json, fileName: "again.json", timeZone: utc)
        HarnessInvariant.check(again == lossless, "Lectern's JSON did not read back what it wrote")
    }
}

import ArgumentParser
import Bookshelf
import LibrarySearch

/// `lectern import --calibre FOLDER`: a calibre library's books added by reference, one line
/// each (its series and tags said beside it), then their text indexed for `lectern search`.
/// The library is remembered: its new books appear at the next start (``CalibreRefresh``).
enum CalibreImportCommand {
    static func run(folder: String, store: LibraryStore, index: Bool) async throws {
        let library: CalibreLibrary
        let outcomes: [CalibreImporter.Outcome]
        let stamp: CalibreStamp
        do throws(LibraryError) {
            library = try CalibreLibrary(folder: folder)
            // Taken before the books are read: a book calibre adds meanwhile is found next start.
            stamp = try library.stamp()
            let importer = LibraryImporter(store: store, open: UIComposition.open)
            outcomes = try await CalibreImporter(importer: importer).importLibrary(library)
        } catch {
            Output.error(error.userMessage)
            throw ExitStatus.cannotOpen
        }
        // Remembered so that the next start re-imports it when calibre changes it (CalibreRefresh).
        do throws(LibraryError) {
            try store.rememberCalibre(folder: library.folder, stamp: stamp)
        } catch {
            Output.error("the calibre library is not remembered, its new books are found only by importing it again: \(error.userMessage)")
        }
        var failed = 0
        for outcome in outcomes {
            let book = outcome.book
            let about = about(book.series, book.seriesIndex, book.tags)
            guard let imported = outcome.imported else {
                failed += 1
                Output.error("\(book.title): no file Lectern reads in the calibre library; skipped")
                continue
            }
            guard let entry = imported.entry else {
                failed += 1
                Output.error("\(imported.path): \(imported.error ?? "not added")")
                continue
            }
            let state = imported.previous == nil && imported.knownCopy == nil ? "added" : outcome.unchanged ? "already in the library" : "updated"
            Output.line("\(state): \(entry.title)\(about) — \(imported.path)")
        }
        Output.flush()
        if index {
            let added = Set(outcomes.compactMap { $0.imported?.entry?.protection == ProtectionMark.none ? $0.imported?.entry?.id : nil })
            if !added.isEmpty {
                let report = await LibraryIndexer(store: store, open: UIComposition.open).indexPending(onlyIDs: added)
                for failure in report.failed { Output.error("not indexed for search: \(failure.title): \(failure.reason)") }
            }
        }
        Output.flush()
        if failed > 0 { throw ExitStatus.someFailed }
    }

    /// " [Series #2] {tag, tag}", what `import --calibre` and `list` say beside a title.
    static func about(_ series: String?, _ index: Double?, _ tags: [String]) -> String {
        var about = ""
        if let series {
            about += " [\(series)\(index.map { " #" + number($0) } ?? "")]"
        }
        if !tags.isEmpty { about += " {\(tags.joined(separator: ", "))}" }
        return about
    }

    /// 2 for 2.0, 1.5 for 1.5.
    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

import Bookshelf

/// At start (`lectern` and `lectern list`), re-imports each calibre library that
/// `import --calibre` remembered and that calibre changed since (#34): a stat of its
/// `metadata.db` when nothing changed, its latest `books.last_modified` read only when the
/// file's time or size moved, and the import (read-only, as `import --calibre`) only when that
/// changed too. A library that is gone or unreadable is skipped, never fatal. The library of
/// `calibre_library` in config.toml is imported the first time it is seen, then looked at so.
enum CalibreRefresh {
    /// Brings the remembered libraries up to date; `report` receives one line per library
    /// that could not be looked at (the bookshelf passes nil: its terminal is not stderr's).
    static func run(store: LibraryStore, configured: String?, report: ((String) -> Void)?) async {
        guard let remembered = try? store.calibreSources() else { return }
        // nil: never imported, so imported whatever its stamp.
        var sources: [(folder: String, stamp: CalibreStamp?)] = remembered.map { ($0.folder, $0.stamp) }
        if let configured, case let folder = CalibreLibrary.resolved(configured), !sources.contains(where: { $0.folder == folder }) {
            sources.append((configured, nil))
        }
        for (folder, remembered) in sources {
            guard let file = CalibreLibrary.fileStamp(folder: folder) else {
                report?("calibre library \(folder): not found; its new books are not looked for")
                continue
            }
            if let remembered, file.sameFile(as: remembered) { continue }
            do throws(LibraryError) {
                let library = try CalibreLibrary(folder: folder)
                let stamp = try library.stamp()
                if remembered == nil || stamp.lastModified != remembered?.lastModified {
                    let importer = LibraryImporter(store: store, open: UIComposition.open)
                    _ = try await CalibreImporter(importer: importer).importLibrary(library)
                }
                // Taken before the import: a book calibre adds meanwhile is found next time.
                try store.rememberCalibre(folder: library.folder, stamp: stamp)
            } catch {
                report?("calibre library \(folder): \(error.userMessage); its new books are not looked for")
            }
        }
    }
}

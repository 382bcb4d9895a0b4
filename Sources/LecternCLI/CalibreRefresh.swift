import Bookshelf

/// At start (`lectern` and `lectern list`), re-imports each calibre library that
/// `import --calibre` remembered and that calibre changed since (#34): a stat of its
/// `metadata.db` when nothing changed, its latest `books.last_modified` read only when the
/// file's time or size moved, and the import (read-only, as `import --calibre`) only when that
/// changed too. A library that is gone or unreadable is skipped, never fatal.
enum CalibreRefresh {
    /// Brings the remembered libraries up to date; `report` receives one line per library
    /// that could not be looked at (the bookshelf passes nil: its terminal is not stderr's).
    static func run(store: LibraryStore, report: ((String) -> Void)?) async {
        guard let sources = try? store.calibreSources() else { return }
        for (folder, remembered) in sources {
            guard let file = CalibreLibrary.fileStamp(folder: folder) else {
                report?("calibre library \(folder): not found; its new books are not looked for")
                continue
            }
            if file.sameFile(as: remembered) { continue }
            do throws(LibraryError) {
                let library = try CalibreLibrary(folder: folder)
                let stamp = try library.stamp()
                if stamp.lastModified != remembered.lastModified {
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

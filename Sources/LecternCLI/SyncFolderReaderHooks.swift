import Annotations
import Bookshelf
import FoundationEssentials
import ReaderUI
import Shared
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The reader's annotation sync through a folder (#32), wrapped around the interface's
/// annotation store by the composition root: when a book opens, its file in the folder is merged
/// before its highlights are read (what other devices did is drawn at once); after every
/// highlight, note or deletion, the file is merged and written again (what this device did
/// reaches the folder while the book is open, nothing waits for its closing). The bookshelf's
/// list of every book's annotations does not sync. Problems go to the log: reading goes on.
enum SyncFolderReaderHooks {
    static let log = Diagnostics.logger("lectern.sync")
    /// One sync at a time in this process: a save right after another merges the file the first wrote.
    private static let serial = Mutex(())

    static func syncing(_ factory: @escaping AnnotationStoreFactory, store: LibraryStore) -> AnnotationStoreFactory {
        { publicationID, publication in
            let inner = factory(publicationID, publication)
            guard publication != nil else { return inner }
            return BookAnnotationStore(
                list: { () async throws(LibraryError) -> [Annotation] in
                    await sync(publicationID, store: store)
                    return try await inner.list()
                },
                save: { (annotation: Annotation) async throws(LibraryError) in
                    try await inner.save(annotation)
                    await sync(publicationID, store: store)
                },
                delete: { (id: String) async throws(LibraryError) in
                    try await inner.delete(id)
                    await sync(publicationID, store: store)
                })
        }
    }

    /// How often the reader merges an open book's file again: every three minutes when a folder
    /// is set (`LECTERN_ANNOTATION_SYNC_SECONDS` changes it, for tests); nil without a folder.
    static func refreshInterval(store: LibraryStore) -> Duration? {
        guard (try? store.syncSetting(AnnotationFolderSync.settingKey)) != nil else { return nil }
        let asked = getenv("LECTERN_ANNOTATION_SYNC_SECONDS").flatMap { Double(String(cString: $0)) }
        guard let asked, asked.isFinite, asked >= 0.1 else { return .seconds(180) }
        return .milliseconds(Int64(min(asked, 86_400) * 1000))
    }

    /// Merges the book's file with the library, when a folder is set.
    static func sync(_ publicationID: Int64, store: LibraryStore) async {
        await Blocking.run {
            guard let folder = try? store.syncSetting(AnnotationFolderSync.settingKey),
                  let entry = try? store.entry(id: publicationID) else { return }
            let outcome = serial.withLock { _ in AnnotationFolderSync(folder: folder).sync(entry, store: store) }
            for problem in outcome.problems {
                log.info("annotation sync: \(entry.title): \(problem)")
            }
        }
    }
}

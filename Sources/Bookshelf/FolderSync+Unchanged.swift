import Annotations
import FoundationEssentials
import LibCrypto
import LibSQLite

/// Telling at once that nothing changed since a book's last merge (#32: the reader syncs on
/// opening, on closing and every few minutes; with 2,000 annotations, reading, decoding and
/// comparing both sides took most of the 50 ms a merge may cost).
///
/// After a merge that left the folder's file and the library in step, the library keeps, as a
/// sync setting of the book, what the merge saw: the folder, the file's stamp
/// (``FolderSyncFiles/stamp(of:)``: inode, size and times, from the descriptor it read or wrote)
/// and a digest of the versions (id, modified time, deletion) of the book's annotations and
/// bookmarks as the merge left them. The next sync compares these with the file's stamp now and
/// the library's versions now (one query of three columns): all equal, and no conflict copy in
/// the folder, there is nothing to read, merge or write. Anything else — another device's
/// write, a local edit (every edit moves its modified time), a deletion, a new folder — merges
/// in full.
extension AnnotationFolderSync {
    /// The sync setting holding a book's last merge.
    static func mergedKey(publicationID: Int64) -> String {
        "folder.merged.\(publicationID)"
    }

    /// The recorded state of a merge: what must be equal for the next sync to skip.
    static func mergedState(fileName: String, stamp: String, versions: String, protection: ProtectionMark) -> String {
        ["v1", protection.rawValue, fileName, stamp, versions].joined(separator: "\n")
    }

    /// A digest of the versions of annotations and bookmarks: their ids, modified times to the
    /// microsecond (what the files keep, ``AnnotationMerge/micros(_:)``) and deletions.
    static func versionDigest(annotations: [(id: String, modified: Date, deleted: Bool)],
                              bookmarks: [(id: String, modified: Date, deleted: Bool)]) -> String {
        func lines(_ versions: [(id: String, modified: Date, deleted: Bool)]) -> [String] {
            versions.map { "\($0.id)\t\(AnnotationMerge.micros($0.modified))\t\($0.deleted ? 1 : 0)" }.sorted()
        }
        let text = (lines(annotations) + ["--"] + lines(bookmarks)).joined(separator: "\n")
        return Digest.sha256(Array(text.utf8)).hexString
    }

    /// The digest of a merge's result, what the library holds once it is saved.
    static func versionDigest(_ annotations: [Annotation], _ bookmarks: [SyncedBookmark]) -> String {
        versionDigest(annotations: annotations.map { ($0.id, $0.modified, $0.deleted) },
                      bookmarks: bookmarks.map { ($0.id, $0.modified, $0.deleted) })
    }

    /// Whether the book's file and the library are as the last merge left them (see above).
    func isUnchanged(_ entry: LibraryEntry, fileName: String, store: LibraryStore) -> Bool {
        guard let stamp = FolderSyncFiles.currentStamp(folder + "/" + fileName),
              let (recorded, annotations, bookmarks) = try? store.folderSyncVersions(publicationID: entry.id,
                                                                                      settingKey: Self.mergedKey(publicationID: entry.id)),
              let recorded else { return false }
        let versions = Self.versionDigest(annotations: annotations, bookmarks: bookmarks)
        return recorded == Self.mergedState(fileName: folder + "/" + fileName, stamp: stamp, versions: versions, protection: entry.protection)
    }

    /// Records that the merge left the file with `stamp` and the library with `annotations` and
    /// `bookmarks`. A failure to record only costs the next sync a full merge.
    func recordMerged(_ entry: LibraryEntry, fileName: String, stamp: String, annotations: [Annotation],
                      bookmarks: [SyncedBookmark], store: LibraryStore) {
        let state = Self.mergedState(fileName: folder + "/" + fileName, stamp: stamp,
                                     versions: Self.versionDigest(annotations, bookmarks), protection: entry.protection)
        try? store.setSyncSettings([Self.mergedKey(publicationID: entry.id): state])
    }
}

extension LibraryStore {
    /// The sync setting `settingKey` and the versions of the book's annotations and bookmarks
    /// (tombstones included), read in one transaction.
    func folderSyncVersions(publicationID: Int64, settingKey: String) throws(LibraryError)
        -> (setting: String?, annotations: [(id: String, modified: Date, deleted: Bool)],
            bookmarks: [(id: String, modified: Date, deleted: Bool)]) {
        try Self.migrate(database, [Self.syncMigrations])
        return try locked { database throws(SQLiteError) in
            func versions(_ sql: String) throws(SQLiteError) -> [(id: String, modified: Date, deleted: Bool)] {
                try database.query(sql, [.integer(publicationID)]).map { row in
                    (row.string(0) ?? "", Date(timeIntervalSince1970: row.double(1) ?? 0), (row.int(2) ?? 0) != 0)
                }
            }
            let setting = try database.query("SELECT value FROM sync_settings WHERE key = ?", [.text(settingKey)]).first?.string(0)
            return (setting, try versions("SELECT id, modified_at, deleted FROM shelf_annotations WHERE publication_id = ?"),
                    try versions("SELECT uid, modified_at, deleted FROM shelf_bookmarks WHERE publication_id = ?"))
        }
    }
}

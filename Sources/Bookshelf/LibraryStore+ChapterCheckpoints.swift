import LibSQLite
import Shared

/// Where the conversion of a long chapter can start over, kept beside the chapter lengths
/// (#28): offsets and counts only, never text, so a protected book's are kept too. Added by
/// the library's named step `library/11-chapter-checkpoints`.
enum ChapterCheckpointsSchema {
    static let table = """
        CREATE TABLE IF NOT EXISTS shelf_chapter_checkpoints (
            identity TEXT NOT NULL,
            chapter INTEGER NOT NULL,
            fields TEXT NOT NULL,
            PRIMARY KEY (identity, chapter)
        );
        """
}

extension LibraryStore {
    /// The checkpoints of each chapter of the book of content identity `identity` that has
    /// some, as the integers the reader wrote (``setChapterCheckpoints(_:chapter:identity:)``).
    public func chapterCheckpoints(identity: String) throws(LibraryError) -> [Int: [Int]] {
        try locked { database throws(SQLiteError) in
            var result: [Int: [Int]] = [:]
            for row in try database.query("SELECT chapter, fields FROM shelf_chapter_checkpoints WHERE identity = ?", [.text(identity)]) {
                guard let chapter = row.int(0), let fields = row.string(1) else { continue }
                result[chapter] = fields.split(separator: ",").compactMap { Int($0) }
            }
            return result
        }
    }

    /// Keeps the checkpoints of chapter `chapter` (integers only), replacing those kept;
    /// none removes them.
    public func setChapterCheckpoints(_ fields: [Int], chapter: Int, identity: String) throws(LibraryError) {
        try locked { database throws(SQLiteError) in
            if fields.isEmpty {
                try database.run("DELETE FROM shelf_chapter_checkpoints WHERE identity = ? AND chapter = ?",
                                 [.text(identity), .integer(Int64(chapter))])
            } else {
                try database.run("INSERT OR REPLACE INTO shelf_chapter_checkpoints (identity, chapter, fields) VALUES (?, ?, ?)",
                                 [.text(identity), .integer(Int64(chapter)), .text(fields.map(String.init).joined(separator: ","))])
            }
        }
    }
}

extension Library {
    /// The checkpoints kept for the chapters of the content `identity` (see
    /// ``LibraryStore/chapterCheckpoints(identity:)``).
    public func chapterCheckpoints(identity: String) throws(LibraryError) -> [Int: [Int]] {
        try store.chapterCheckpoints(identity: identity)
    }

    /// Keeps the checkpoints of chapter `chapter` of the content `identity`.
    public func setChapterCheckpoints(_ fields: [Int], chapter: Int, identity: String) throws(LibraryError) {
        try store.setChapterCheckpoints(fields, chapter: chapter, identity: identity)
    }
}

/// What bookmarks need to be synced through a folder (#32), added to `shelf_bookmarks` by the
/// library's named step `library/8-bookmark-sync` (``LibrarySchema/named``): a stable id (`uid`,
/// a UUID string, the same on every device; the row id stays the local key), a modified time
/// and a deletion tombstone (`deleted`: the row is kept, its label dropped, so that the
/// deletion reaches the other devices).
///
/// Bookmarks already there get an id drawn at random and their creation time as modified
/// time: an old library keeps every bookmark, label and place.
enum BookmarkSyncSchema {
    static let columns = """
        ALTER TABLE shelf_bookmarks ADD COLUMN uid TEXT NOT NULL DEFAULT '';
        ALTER TABLE shelf_bookmarks ADD COLUMN modified_at REAL NOT NULL DEFAULT 0;
        ALTER TABLE shelf_bookmarks ADD COLUMN deleted INTEGER NOT NULL DEFAULT 0;
        UPDATE shelf_bookmarks SET modified_at = created_at,
            uid = lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2)
                || '-' || substr('89ab', 1 + abs(random()) % 4, 1) || substr(lower(hex(randomblob(2))), 2)
                || '-' || lower(hex(randomblob(6)));
        CREATE UNIQUE INDEX shelf_bookmarks_uid ON shelf_bookmarks (publication_id, uid);
        """
}

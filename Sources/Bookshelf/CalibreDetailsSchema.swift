/// What a calibre library says of a book beyond title and authors (#34), added to
/// `shelf_publications` by the library's named step `library/9-calibre-details`
/// (``LibrarySchema/named``): the series and the book's number in it, the tags (one a line:
/// a tag never holds a control character, ``LibraryStore/setCalibreDetails(id:_:)`` drops
/// them) and the path of calibre's `cover.jpg`.
///
/// Only `lectern import --calibre` fills them; importing the same file again by itself keeps
/// them (``LibraryStore/add(_:)`` never touches these columns).
enum CalibreDetailsSchema {
    static let columns = """
        ALTER TABLE shelf_publications ADD COLUMN series TEXT;
        ALTER TABLE shelf_publications ADD COLUMN series_index REAL;
        ALTER TABLE shelf_publications ADD COLUMN tags TEXT NOT NULL DEFAULT '';
        ALTER TABLE shelf_publications ADD COLUMN cover TEXT;
        CREATE INDEX shelf_publications_series ON shelf_publications (series, series_index);
        """
}

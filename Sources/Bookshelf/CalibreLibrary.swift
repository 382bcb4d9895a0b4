import FoundationEssentials
import LibSQLite
#if canImport(Glibc)
import Glibc
#endif

/// One book of a calibre library, as its `metadata.db` describes it.
public struct CalibreBook: Sendable, Hashable {
    public var id: Int
    public var title: String
    /// In calibre's order (the order of `books_authors_link`).
    public var authors: [String]
    /// calibre's sort form of the authors ("Melville, Herman").
    public var authorSort: String
    public var series: String?
    public var seriesIndex: Double?
    public var tags: [String]
    /// The file Lectern reads best among the book's formats, inside the library folder; nil
    /// when it has none Lectern reads, or none whose path stays inside the library.
    public var file: String?
    /// `cover.jpg` of the book's folder, when calibre has one.
    public var cover: String?
}

/// Reads a calibre library (a folder with `metadata.db`) without ever writing to it: the
/// database is opened read-only (calibre may be running), only plain SQL is used (none of
/// the functions calibre registers itself), and the files are taken where they are.
///
/// The schema read is calibre's own (`books`, `authors`, `books_authors_link`, `series`,
/// `books_series_link`, `tags`, `books_tags_link`, `data`). What the database says is not
/// trusted: a book folder or file name that would lead outside the library is left out.
public struct CalibreLibrary: Sendable {
    /// The library folder, resolved (symbolic links followed).
    public let folder: String

    /// The formats in the order Lectern reads them best: reflowable books with their own
    /// structure first, then paged documents, comics, plain text.
    public static let formatPreference = ["EPUB", "KEPUB", "AZW3", "MOBI", "AZW", "PRC", "FB2", "PDF", "DJVU", "DJV",
                                          "CBZ", "CBR", "CB7", "CBT", "MD", "MARKDOWN", "TXT", "HTML", "HTM"]

    public init(folder: String) throws(LibraryError) {
        guard let resolved = realpath(folder, nil) else {
            throw LibraryError(message: "\(folder): no such calibre library")
        }
        defer { free(resolved) }
        self.folder = String(cString: resolved)
        guard access(self.folder + "/metadata.db", R_OK) == 0 else {
            throw LibraryError(message: "\(folder) is not a calibre library: it has no metadata.db")
        }
    }

    /// The books, ordered by series, series index and title.
    public func books() throws(LibraryError) -> [CalibreBook] {
        do throws(SQLiteError) {
            let database = try SQLiteDatabase(readingOnly: folder + "/metadata.db")
            var books: [Int: CalibreBook] = [:]
            for row in try database.query("SELECT id, title, author_sort, series_index, path, has_cover FROM books") {
                guard let id = row.int(0) else { continue }
                let path = row.string(4) ?? ""
                let safeFolder = Self.isSafeComponent(path, allowSlash: true) ? folder + "/" + path : nil
                books[id] = CalibreBook(
                    id: id, title: row.string(1) ?? "", authors: [], authorSort: row.string(2) ?? "", series: nil,
                    seriesIndex: row.double(3), tags: [], file: nil,
                    cover: safeFolder.flatMap { row.int(5) == 1 ? inside($0 + "/cover.jpg") : nil })
            }
            for row in try database.query("""
                SELECT l.book, a.name FROM books_authors_link l JOIN authors a ON a.id = l.author ORDER BY l.id
                """) {
                if let id = row.int(0), let name = row.string(1) { books[id]?.authors.append(name) }
            }
            for row in try database.query("SELECT l.book, s.name FROM books_series_link l JOIN series s ON s.id = l.series") {
                if let id = row.int(0) { books[id]?.series = row.string(1) }
            }
            for row in try database.query("SELECT l.book, t.name FROM books_tags_link l JOIN tags t ON t.id = l.tag ORDER BY t.name") {
                if let id = row.int(0), let name = row.string(1) { books[id]?.tags.append(name) }
            }
            var formats: [Int: [(format: String, name: String)]] = [:]
            for row in try database.query("SELECT book, format, name FROM data") {
                if let id = row.int(0), let format = row.string(1), let name = row.string(2) {
                    formats[id, default: []].append((format.uppercased(), name))
                }
            }
            let paths = try database.query("SELECT id, path FROM books").reduce(into: [Int: String]()) { paths, row in
                if let id = row.int(0) { paths[id] = row.string(1) }
            }
            for (id, available) in formats {
                guard let path = paths[id], Self.isSafeComponent(path, allowSlash: true) else { continue }
                let ranked = available.sorted { rank($0.format) < rank($1.format) }
                for candidate in ranked where rank(candidate.format) < Self.formatPreference.count {
                    guard Self.isSafeComponent(candidate.name, allowSlash: false),
                          Self.isSafeComponent(candidate.format, allowSlash: false) else { continue }
                    let file = folder + "/" + path + "/" + candidate.name + "." + candidate.format.lowercased()
                    if let inside = inside(file) {
                        books[id]?.file = inside
                        break
                    }
                }
            }
            return books.values.sorted {
                ($0.series ?? "\u{10FFFF}", $0.seriesIndex ?? 0, $0.title.lowercased(), $0.id)
                    < ($1.series ?? "\u{10FFFF}", $1.seriesIndex ?? 0, $1.title.lowercased(), $1.id)
            }
        } catch {
            throw LibraryError(message: "the calibre library cannot be read: \(error.message)")
        }
    }

    private func rank(_ format: String) -> Int {
        Self.formatPreference.firstIndex(of: format) ?? Self.formatPreference.count
    }

    /// A name from the database usable as a path part: not empty, not absolute, no `..`, no
    /// NUL, no control characters; `/` only between the two levels of `books.path`.
    static func isSafeComponent(_ value: String, allowSlash: Bool) -> Bool {
        guard !value.isEmpty, !value.hasPrefix("/"), !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            return false
        }
        if !allowSlash, value.contains("/") { return false }
        return !value.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0 == "." || $0.isEmpty }
    }

    /// `path` resolved, when it exists and lies inside the library folder (a symbolic link
    /// leading elsewhere is refused too).
    func inside(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        let result = String(cString: resolved)
        return result.hasPrefix(folder + "/") ? result : nil
    }
}

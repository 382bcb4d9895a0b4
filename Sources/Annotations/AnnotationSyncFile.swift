import FoundationEssentials
import Shared

/// The file a device writes for one publication into a synced folder (#32): a Readium
/// Annotation Set (``ReadiumAnnotationSet``) with one extension, `"lectern:deleted": true` on
/// the items that are deletion tombstones, so that a deletion reaches the other devices.
/// Other readers of the set see a tombstone as an empty highlight at its place, as the
/// extension is unknown to them; its quote and note are gone already (the store drops them).
/// Modified times are the set's own `modified`, to the microsecond. The book's bookmarks are
/// in the set's member `"lectern:bookmarks"` (``SyncedBookmark``, tombstones included), which
/// other readers ignore.
public enum AnnotationSyncFile {
    /// The member that marks a tombstone.
    static let deletedKey = "lectern:deleted"
    /// The set's member holding the bookmarks.
    static let bookmarksKey = "lectern:bookmarks"

    /// The set of `publication`, tombstones included, with `bookmarks`, UTF-8.
    public static func write(_ publication: AnnotatedPublication, bookmarks: [SyncedBookmark] = [], generated: Date) -> Data {
        var object = JSONObject()
        object.append("@context", .string(ReadiumAnnotationSet.context))
        object.append("id", .string(ReadiumAnnotationSet.setIdentifier(publication, items: publication.annotations)))
        object.append("type", .string("AnnotationSet"))
        object.append("generator", .object(JSONObject(["id": .string("urn:lectern"), "type": .string("Software"),
                                                       "name": .string("Lectern")])))
        object.append("generated", .string(AnnotationDates.iso8601(generated)))
        var about = JSONObject()
        if let identifier = publication.identifier { about.append("dc:identifier", .array([.string(identifier)])) }
        about.append("dc:title", .string(publication.title))
        if !publication.authors.isEmpty { about.append("dc:creator", .array(publication.authors.map(JSONValue.string))) }
        object.append("about", .object(about))
        if !bookmarks.isEmpty { object.append(bookmarksKey, .array(bookmarks.map(SyncedBookmark.json))) }
        let items = publication.annotations.map { annotation -> [UInt8] in
            var item = ReadiumAnnotationSet.item(annotation)
            if annotation.deleted, case .object(var members) = item {
                members.append(deletedKey, .bool(true))
                item = .object(members)
            }
            return AnnotationJSONLayout.bytes(item)
        }
        var bytes = AnnotationJSONLayout.object(object, key: "items", items: items)
        bytes.append(UInt8(ascii: "\n"))
        return Data(bytes)
    }

    /// The publication and annotations of a file written by ``write(_:generated:)`` (or any
    /// single Readium set: its items are live). Throws on anything else, a truncated file
    /// included; entries that could not be read are in ``AnnotatedPublication/skipped``.
    public static func read(_ data: Data) throws(AnnotationImportError) -> AnnotatedPublication {
        try readWithBookmarks(data).publication
    }

    /// Like ``read(_:)``, with the bookmarks; a bookmark that cannot be read is in the
    /// publication's ``AnnotatedPublication/skipped``.
    public static func readWithBookmarks(_ data: Data) throws(AnnotationImportError)
        -> (publication: AnnotatedPublication, bookmarks: [SyncedBookmark]) {
        guard data.count <= AnnotationImporter.maximumFileSize else {
            throw .tooLarge(bytes: data.count, limit: AnnotationImporter.maximumFileSize)
        }
        let root: JSONValue
        do {
            root = try JSONParser.parse([UInt8](data))
        } catch {
            throw .malformedJSON(error.description)
        }
        guard root["type"]?.string == "AnnotationSet", let items = root["items"]?.array else {
            throw .invalidStructure("it is not a Readium annotation set with an \"items\" array")
        }
        guard var publication = try ReadiumAnnotationSet.read(root).first else {
            throw .invalidStructure("it holds no annotation set")
        }
        let deleted = Set(items.compactMap { item -> String? in
            guard item[deletedKey]?.bool == true, let id = item["id"]?.string else { return nil }
            return ReadiumAnnotationSet.lecternIdentifier(id)
        })
        if !deleted.isEmpty {
            for index in publication.annotations.indices where deleted.contains(publication.annotations[index].id) {
                publication.annotations[index].deleted = true
            }
        }
        var bookmarks: [SyncedBookmark] = []
        if let members = root[bookmarksKey] {
            guard let list = members.array else { throw .invalidStructure("its \"\(bookmarksKey)\" is not an array") }
            for (index, item) in list.enumerated() {
                if let bookmark = SyncedBookmark(json: item) {
                    bookmarks.append(bookmark)
                } else {
                    publication.skipped.append("bookmark \(index + 1): no id, place or time")
                }
            }
        }
        return (publication, bookmarks)
    }
}

extension SyncedBookmark {
    /// The bookmark as the sync file holds it; the locator as a JSON object when it is one.
    static func json(_ bookmark: SyncedBookmark) -> JSONValue {
        var object = JSONObject()
        object.append("id", .string(bookmark.id))
        object.append("locator", (try? JSONParser.parse(Array(bookmark.locator.utf8))) ?? .string(bookmark.locator))
        object.append("label", .string(bookmark.label))
        object.append("progress", bookmark.progress.map(JSONValue.double))
        object.append("created", .string(AnnotationDates.iso8601(bookmark.created)))
        object.append("modified", .string(AnnotationDates.iso8601(bookmark.modified)))
        if bookmark.deleted { object.append(AnnotationSyncFile.deletedKey, .bool(true)) }
        return .object(object)
    }

    /// A bookmark read from the sync file; nil without an id, a place or its times.
    init?(json: JSONValue) {
        guard let id = json["id"]?.string, !id.isEmpty, id.utf8.count <= 200, let place = json["locator"],
              let created = json["created"]?.string.flatMap(AnnotationDates.parseISO8601),
              let modified = json["modified"]?.string.flatMap(AnnotationDates.parseISO8601) else { return nil }
        let locator: String
        switch place {
        case .object: locator = String(decoding: AnnotationJSONLayout.bytes(place), as: UTF8.self)
        case .string(let text): locator = text
        default: return nil
        }
        let progress = json["progress"]?.double
        self.init(id: id, locator: locator, label: json["label"]?.string ?? "",
                  progress: progress.flatMap { $0.isFinite ? $0 : nil }, created: created, modified: modified,
                  deleted: json[AnnotationSyncFile.deletedKey]?.bool == true)
    }
}

import FoundationEssentials
import Shared

/// The file a device writes for one publication into a synced folder (#32): a Readium
/// Annotation Set (``ReadiumAnnotationSet``) with one extension, `"lectern:deleted": true` on
/// the items that are deletion tombstones, so that a deletion reaches the other devices.
/// Other readers of the set see a tombstone as an empty highlight at its place, as the
/// extension is unknown to them; its quote and note are gone already (the store drops them).
/// Modified times are the set's own `modified`, to the microsecond.
public enum AnnotationSyncFile {
    /// The member that marks a tombstone.
    static let deletedKey = "lectern:deleted"

    /// The set of `publication`, tombstones included, UTF-8.
    public static func write(_ publication: AnnotatedPublication, generated: Date) -> Data {
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
        return publication
    }
}

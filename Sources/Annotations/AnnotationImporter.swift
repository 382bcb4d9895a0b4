import FoundationEssentials
import Shared

/// Reads files of annotations, whichever of the formats Lectern imports they are in: the
/// Readium Annotation Set, Lectern's own JSON, and KOReader's `metadata.*.lua` (or its `.sdr`
/// folder). What is read is not yet placed in a book: ``QuoteAnchoring`` does that.
public enum AnnotationImporter {
    /// Larger files are refused before they are read: 64 MB is well past any real set of
    /// annotations (100,000 of them in Lectern's JSON take about 40 MB).
    public static let maximumFileSize = 64 * 1_048_576

    /// The publications and annotations of the file at `path` (a KOReader `.sdr` folder is
    /// read through its `metadata.*.lua`). Its size is checked before anything is read.
    public static func read(contentsOf path: String, timeZone: TimeZone = .current) throws(AnnotationImportError) -> [AnnotatedPublication] {
        var file = path
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .unreadable(path: path, reason: "there is no such file")
        }
        if isDirectory {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            guard let metadata = names.filter({ $0.hasPrefix("metadata.") && $0.hasSuffix(".lua") }).sorted().first else {
                throw .unrecognizedFormat(fileName: path)
            }
            file = path + "/" + metadata
        }
        let size: Int
        do {
            let attribute = try FileManager.default.attributesOfItem(atPath: file)[.size]
            size = (attribute as? Int) ?? (attribute as? UInt64).map { Int(clamping: $0) } ?? (attribute as? Int64).map { Int(clamping: $0) } ?? 0
        } catch {
            throw .unreadable(path: file, reason: "its size could not be read")
        }
        guard size <= maximumFileSize else { throw .tooLarge(bytes: size, limit: maximumFileSize) }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw .unreadable(path: file, reason: "\(error)")
        }
        return try read(data, fileName: String(file.split(separator: "/").last ?? Substring(file)), timeZone: timeZone)
    }

    /// The publications and annotations in `data`, its format told by its content (and, for
    /// KOReader's Lua, its name). KOReader's local times are read in `timeZone`.
    public static func read(_ data: Data, fileName: String, timeZone: TimeZone = .current) throws(AnnotationImportError) -> [AnnotatedPublication] {
        guard data.count <= maximumFileSize else { throw .tooLarge(bytes: data.count, limit: maximumFileSize) }
        let bytes = [UInt8](data)
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            let root: JSONValue
            do {
                root = try JSONParser.parse(bytes)
            } catch {
                throw .malformedJSON(error.description)
            }
            if LecternAnnotationJSON.recognizes(root) { return try LecternAnnotationJSON.read(root) }
            if ReadiumAnnotationSet.recognizes(root) { return try ReadiumAnnotationSet.read(root) }
            throw .unrecognizedFormat(fileName: fileName)
        }
        if KOReaderAnnotations.recognizes(fileName: fileName, bytes: bytes) {
            return [try KOReaderAnnotations.read(bytes, fileName: fileName, timeZone: timeZone)]
        }
        throw .unrecognizedFormat(fileName: fileName)
    }
}

/// Why a file of annotations could not be imported; ``message`` is for the person.
public enum AnnotationImportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file is larger than ``AnnotationImporter/maximumFileSize``; not read.
    case tooLarge(bytes: Int, limit: Int)
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// Neither a Readium Annotation Set, nor Lectern's JSON, nor KOReader's metadata.
    case unrecognizedFormat(fileName: String)
    /// JSON that does not parse.
    case malformedJSON(String)
    /// A KOReader metadata file that is no Lua table literal Lectern can read.
    case malformedLua(String)
    /// The right kind of file, but its structure is not what the format says.
    case invalidStructure(String)

    /// A sentence for the person importing.
    public var message: String {
        switch self {
        case .tooLarge(let bytes, let limit):
            "The file is too large to be a file of annotations (\(bytes / 1_048_576) MB; at most \(limit / 1_048_576) MB are read)."
        case .unreadable(let path, let reason):
            "The file \(path) could not be read: \(reason)."
        case .unrecognizedFormat(let fileName):
            "\(fileName) is not a file of annotations Lectern can import (a Readium .annotation file, Lectern's JSON export, or KOReader's metadata.*.lua)."
        case .malformedJSON(let detail):
            "The file is not valid JSON: \(detail)."
        case .malformedLua(let detail):
            "The KOReader metadata file could not be read: \(detail)."
        case .invalidStructure(let detail):
            "The file of annotations is not as its format says: \(detail)."
        }
    }

    public var description: String { message }
}

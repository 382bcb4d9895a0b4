import FoundationEssentials
import LibXML
import Shared

/// The `binary` elements of an FB2 document as picture resources (`fb2/images/image-N.jpg`),
/// kept in base64 and decoded when first read.
struct FB2Pictures {
    /// The generated resources, in document order.
    private(set) var entries: [GeneratedFetcher.Entry] = []
    /// Each picture's href relative to the generated chapters (`images/image-1.jpg`), by id.
    private(set) var relativeHrefs: [String: String] = [:]
    private var indexOfID: [String: Int] = [:]

    init(root: XMLElement, limit: Int, warnings: (any WarningLogger)?, href: String) {
        for binary in root.children(named: "binary") {
            guard let id = binary.attribute("id"), !id.isEmpty, indexOfID[id] == nil else { continue }
            guard entries.count < limit else {
                warnings.log("more than \(limit) pictures: the others are left out", severity: .moderate, href: href)
                break
            }
            let declared = binary.attribute("content-type").flatMap(MediaType.init)
            let mediaType = declared ?? MediaType.of(path: id) ?? .jpeg
            guard mediaType.isBitmap || mediaType.matches(.svg) else { continue }
            let name = "image-\(entries.count + 1)." + (mediaType.fileExtension ?? "bin")
            let encoded = binary.textContent
            let link = Link(href: "fb2/images/" + name, mediaType: mediaType)
            entries.append(GeneratedFetcher.Entry(link: link) {
                guard let decoded = Data(base64Encoded: encoded, options: .ignoreUnknownCharacters) else {
                    return .failure(.other(FB2PictureError(id: id)))
                }
                return .success(decoded)
            })
            relativeHrefs[id] = "images/" + name
            indexOfID[id] = entries.count - 1
        }
    }

    func index(ofID id: String) -> Int? { indexOfID[id] }
}

/// A picture whose base64 cannot be decoded.
struct FB2PictureError: Error, CustomStringConvertible {
    var id: String
    var description: String { "the picture \(id) is not valid base64" }
}

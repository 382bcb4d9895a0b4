import FoundationEssentials
import Shared

/// One publication offered by a ``PublicationServer``, under `/SECRET/pub/ID/`.
public struct ServedPublication: Sendable {
    /// The path segment naming the publication in URLs: letters, digits, `-` and `_` only, so
    /// that it never carries a file name or a path.
    public let id: String
    public let publication: Publication
    /// When the publication last changed (its file's modification date), to the second: the
    /// `Last-Modified` of its resources, which do not change while it is served.
    public let lastModified: Date

    /// - Precondition: `id` is made of ASCII letters, digits, `-` and `_`.
    /// - Parameter lastModified: when the publication last changed; now by default.
    public init(id: String, publication: Publication, lastModified: Date = Date()) {
        precondition(!id.isEmpty && id.utf8.allSatisfy(ServedPublication.isIDByte), "invalid publication id \(id)")
        self.id = id
        self.publication = publication
        self.lastModified = Date(timeIntervalSince1970: lastModified.timeIntervalSince1970.rounded(.down))
    }

    static func isIDByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }
}

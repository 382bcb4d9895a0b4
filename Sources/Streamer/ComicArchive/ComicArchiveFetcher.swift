import FoundationEssentials
import LibArchive
import Shared

/// Serves the entries of a RAR, 7z or tar archive read through libarchive (which it owns
/// and closes), as an ``ArchiveFetcher`` serves a ZIP's: the comic parser reads either alike.
public final class ComicArchiveFetcher: Fetcher {
    public let archive: StreamingArchive
    public let links: [Link]
    private let indexByPath: [String: Int]

    public init(archive: StreamingArchive) {
        self.archive = archive
        let files = archive.entries.filter { !$0.isDirectory }
        links = files.map { Link(href: Href.fromPath($0.path), mediaType: MediaType.of(path: $0.path)) }
        // A path listed twice (a tar appended to) is the last copy, as extracting it would give.
        indexByPath = Dictionary(files.map { ($0.path, $0.index) }, uniquingKeysWith: { $1 })
    }

    /// Opens the archive at `path`, keeping decoded while passing over them only the entries
    /// a comic book reads: pictures and `ComicInfo.xml`.
    public convenience init(path: String, limits: ArchiveLimits = ArchiveLimits()) throws(ArchiveError) {
        self.init(archive: try StreamingArchive(path: path, limits: limits) { path in
            MediaType.of(path: path)?.isBitmap ?? false || path.lowercased().hasSuffix("comicinfo.xml")
        })
    }

    public func get(_ link: Link, parameters: [String: String]) -> any Resource {
        guard let path = link.path, let index = indexByPath[path] else {
            return FailureResource(link: link, error: .notFound(link.href))
        }
        var link = link
        if link.mediaType == nil { link.mediaType = MediaType.of(path: path) }
        let archive = archive, declared = archive.entries[index].declaredSize
        let resource = BytesResource(link: link) {
            do throws(ArchiveError) {
                return .success(try archive.read(index))
            } catch {
                return .failure(error.resourceError)
            }
        }
        return DeclaredLengthResource(resource: resource, declaredLength: declared)
    }

    public func close() { archive.close() }
}

/// An entry resource that tells its declared length without decoding the entry.
final class DeclaredLengthResource: Resource {
    let resource: BytesResource
    let declaredLength: UInt64?

    init(resource: BytesResource, declaredLength: UInt64?) {
        self.resource = resource
        self.declaredLength = declaredLength
    }

    var link: Link { resource.link }
    var length: ResourceResult<UInt64> { declaredLength.map { .success($0) } ?? resource.length }
    func read(range: Range<UInt64>?) -> ResourceResult<Data> { resource.read(range: range) }
    func close() {}
}

extension ArchiveError {
    /// The resource error a reader sees for this archive error.
    var resourceError: ResourceError {
        switch self {
        case .encrypted: .forbidden(self)
        case .closed, .cannotOpen: .unavailable(self)
        case .entryNotFound(let index): .notFound("#\(index)")
        default: .other(self)
        }
    }
}

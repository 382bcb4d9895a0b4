import FoundationEssentials
import Shared

/// How the tracks of a Feedbooks audiobook are read once the checks are done.
enum TrackAccess {
    /// Locks a restricted audiobook: only the manifest's `resources` and `cover` links that are
    /// not audio (the cover, images) stay readable; every track, alternate and anything else
    /// answers `forbidden` with the reason. An allow-list fails closed: a track reachable under
    /// a name the manifest does not list is locked too.
    static func locking(_ fetcher: any Fetcher, manifest: Manifest, error: AudiobookDRMError) -> any Fetcher {
        let readable = (manifest.resources + manifest.links.filter { $0.hasRel("cover") }).filter { link in
            let type = link.mediaType?.type
            return type != "audio" && type != "video" && manifest.readingOrder.first(withHREF: link.href) == nil
        }
        return TransformingFetcher(fetcher) { resource in
            let href = resource.link.href
            if readable.first(withHREF: href) != nil, manifest.readingOrder.first(withHREF: href) == nil { return resource }
            return FailureResource(link: resource.link, error: .forbidden(error))
        }
    }

    /// Explains the refusals of access-restricted tracks: their server wants a bearer token
    /// that only the lending library's app holds (audiobook-drm.md §6). Other tracks, and
    /// access-restricted ones that the server sends anyway, are untouched.
    ///
    /// - Parameter base: the href the manifest's relative hrefs are resolved against, as the
    ///   parser did (Cantook's `alternates` member is not modelled, so not resolved by it).
    static func explainingAccessRestriction(_ fetcher: any Fetcher, manifest: Manifest, base: String) -> any Fetcher {
        let restricted = manifest.readingOrder.filter {
            FeedbooksManifest.isAccessRestricted($0.properties.otherProperties["encrypted"])
        }
        guard !restricted.isEmpty else { return fetcher }
        // Alternates (`alternate`, or Cantook's `alternates`) are the same track in another format.
        let alternates = restricted.flatMap { track in
            track.alternates + Link.array(json: track.otherMembers["alternates"]).map { $0.resolvingHrefs(against: base) }
        }
        let hrefs = restricted + alternates
        return TransformingFetcher(fetcher) { resource in
            guard hrefs.first(withHREF: resource.link.href) != nil else { return resource }
            return AccessRestrictedResource(resource)
        }
    }
}

/// A track whose server asks for a library app's bearer token: a 401 or 403 is reported as
/// ``AccessRestrictionError``.
final class AccessRestrictedResource: Resource {
    let resource: any Resource

    init(_ resource: any Resource) {
        self.resource = resource
    }

    var link: Link { resource.link }
    var length: ResourceResult<UInt64> { resource.length.mapError(Self.explain) }
    func read(range: Range<UInt64>?) -> ResourceResult<Data> { resource.read(range: range).mapError(Self.explain) }
    func close() { resource.close() }

    static func explain(_ error: ResourceError) -> ResourceError {
        guard case .forbidden = error else { return error }
        return .forbidden(AccessRestrictionError())
    }
}

/// Why an access-restricted track cannot be downloaded.
public struct AccessRestrictionError: Error, Sendable, Hashable, CustomStringConvertible, UserMessageConvertible {
    public init() {}

    public var userMessage: String {
        "This track's server requires a token that only the lending library's app can provide (Feedbooks access restriction); Lectern cannot download it."
    }

    public var description: String { userMessage }
}

import FoundationEssentials
import Shared

/// Serves the manifest bytes the protection checked at the manifest's href and passes every
/// other request to the asset's fetcher, so that the parser reads exactly what was verified
/// (a server cannot send a signed manifest to the check and another one to the parser).
final class VerifiedManifestFetcher: Fetcher {
    let fetcher: any Fetcher
    let manifestHref: String
    let manifestBytes: Data

    init(_ fetcher: any Fetcher, manifestHref: String, manifestBytes: Data) {
        self.fetcher = fetcher
        self.manifestHref = manifestHref
        self.manifestBytes = manifestBytes
    }

    var links: [Link] { fetcher.links }

    func get(_ link: Link, parameters: [String: String]) -> any Resource {
        guard parameters.isEmpty, !link.templated, link.href == manifestHref else { return fetcher.get(link, parameters: parameters) }
        return BytesResource(link: link, bytes: manifestBytes)
    }

    func close() { fetcher.close() }
}

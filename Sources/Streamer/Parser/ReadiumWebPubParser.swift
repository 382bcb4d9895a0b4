import FoundationEssentials
import Shared

/// Parses Readium Web Publications: packages (`.webpub`, `.audiobook`, Divina, `.lcpdf`,
/// `.lcpa`) with a root `manifest.json`, and manifests opened on their own, whose resources
/// sit beside them or on the web.
public struct ReadiumWebPubParser: PublicationParser {
    /// Remote resources are read through this client.
    public let httpClient: any HTTPClient

    public init(httpClient: any HTTPClient = CurlHTTPClient()) {
        self.httpClient = httpClient
    }

    public func parse(asset: Asset, fetcher: any Fetcher, warnings: (any WarningLogger)?) throws(PublicationParseError) -> PublicationBuilder? {
        let manifestHref: String
        switch asset.format.kind {
        case .webpub, .audiobook, .divina, .lcpdf, .lcpa:
            manifestHref = "manifest.json"
        case .webpubManifest, .audiobookManifest, .divinaManifest:
            // A manifest on its own: its fetcher exposes it by its URL or its file name.
            manifestHref = Href.isAbsoluteURL(asset.location) ? asset.location : Href.fromPath(asset.name)
        default:
            return nil
        }

        let data: Data
        switch fetcher.get(Link(href: manifestHref, mediaType: .readiumWebPubManifest)).read() {
        case .success(let bytes): data = bytes
        case .failure(.notFound):
            throw .missingResource(href: manifestHref, what: "the publication manifest")
        case .failure(let error):
            throw .unreadableResource(href: manifestHref, error)
        }
        var manifest: Manifest
        do {
            manifest = try Manifest(data: data, base: manifestHref, warnings: warnings)
        } catch {
            throw .invalid(href: manifestHref, reason: error.description)
        }
        if manifest.readingOrder.isEmpty {
            throw .invalid(href: manifestHref, reason: "the manifest has an empty reading order")
        }
        // The manifest of a package describes itself with hrefs relative to the package; a
        // `self` link pointing elsewhere must not redirect reads, and files named by their
        // publisher's URLs are read from the package when it holds them.
        if [.webpub, .audiobook, .divina, .lcpdf, .lcpa].contains(asset.format.kind) {
            let paths = Set(fetcher.links.compactMap(\.path))
            manifest = PackagedHrefLocalizer(paths: paths, manifest: manifest).localized(manifest)
        }
        if asset.format.kind == .lcpdf, !manifest.conforms(to: Manifest.Profile.pdf) {
            warnings.log("the LCP PDF manifest does not declare the PDF profile", severity: .minor, href: manifestHref)
        }

        let needsRemote = (manifest.readingOrder + manifest.resources).contains { Href.isHTTP($0.href) }
        var root = fetcher
        if needsRemote, !(fetcher is HTTPFetcher) {
            root = RoutingFetcher(local: fetcher, remote: CachingFetcher(HTTPFetcher(client: httpClient)))
        }
        return PublicationBuilder(manifest: manifest, fetcher: root, format: asset.format)
    }
}

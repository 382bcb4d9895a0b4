import FoundationEssentials
import Shared
import Streamer

/// A Readium Web Publication Manifest: the Shared model read from JSON and written back, then
/// the manifest of a packaged publication (`.webpub`, `.audiobook`) parsed by
/// ``ReadiumWebPubParser`` and read (remote resources get "offline").
public enum RWPMInput {
    public static func consume(_ bytes: [UInt8]) {
        do {
            let manifest = try Manifest(data: bytes, base: "https://example.org/publication/manifest.json",
                                        warnings: ListWarningLogger())
            JSONRoundTrip.check(manifest.json, "a manifest read from JSON")
            for link in manifest.readingOrder + manifest.tableOfContents { _ = link.resolvingHrefs(against: "https://example.org/other/") }
        } catch {
            _ = error.description
        }
        for kind in [Format.Kind.webpub, .audiobook] {
            openPackaged(bytes, kind: kind)
        }
    }

    static func openPackaged(_ bytes: [UInt8], kind: Format.Kind) {
        let fetcher = MemoryFetcher([
            ("manifest.json", Data(bytes)),
            ("chapter1.html", Data("<html><body><p>One</p></body></html>".utf8)),
            ("cover.jpg", EPUBSkeleton.cover),
            ("track1.mp3", Data([0x49, 0x44, 0x33, 0x04, 0, 0, 0, 0, 0, 0])),
        ])
        let asset = Asset(name: "fuzz.\(kind.rawValue)", location: "fuzz.\(kind.rawValue)", format: Format(kind: kind),
                          fetcher: fetcher)
        let builder: PublicationBuilder?
        do {
            builder = try ReadiumWebPubParser(httpClient: OfflineHTTPClient())
                .parse(asset: asset, fetcher: fetcher, warnings: ListWarningLogger())
        } catch {
            _ = error.userMessage
            return
        }
        guard let builder else { return }
        PublicationProbe.probe(builder.build())
    }
}

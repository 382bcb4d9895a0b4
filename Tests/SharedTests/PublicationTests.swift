import Foundation
import Shared
import Synchronization
import Testing

/// A service answering one route with a fixed text, and counting closes.
private final class RouteService: PublicationService {
    let href: String
    let text: String
    let closes = Counter()

    init(href: String, text: String) {
        self.href = href
        self.text = text
    }

    var links: [Link] { [Link(href: href, mediaType: .text)] }

    func get(_ link: Link) -> (any Resource)? {
        Href.removingFragment(link.href) == href ? StringResource(link: link, string: text) : nil
    }

    func close() { closes.increment() }
}

private func bookManifest() -> Manifest {
    Manifest(
        metadata: Metadata(title: "Book"),
        readingOrder: [Link(href: "c1.xhtml", mediaType: .xhtml), Link(href: "c2.xhtml", mediaType: .xhtml)],
        resources: [Link(href: "style.css", mediaType: .css), Link(href: "content%20001.xhtml", mediaType: .xhtml)])
}

private func bookFetcher() -> SpyFetcher {
    SpyFetcher("book", ["c1.xhtml": "<c1/>", "c2.xhtml": "<c2/>", "style.css": "p {}", "content%20001.xhtml": "<c3/>",
                        "/~test/route": "from the fetcher", "extra.txt": "not in the manifest"])
}

@Suite struct PublicationTests {
    @Test func getAlwaysReturnsAResource() {
        let publication = Publication(manifest: bookManifest(), fetcher: bookFetcher())
        #expect(publication.get("c1.xhtml").read().text == "<c1/>")
        #expect(publication.get("missing.xhtml").read().error?.isNotFound == true)
        #expect(publication.get("https://example.com/x").read().error?.isNotFound == true)
        #expect(publication.get("").read().error?.isNotFound == true)
        #expect(publication.get(Link(href: "../../etc/passwd")).read().error?.isNotFound == true)
        // Resources of the fetcher that the manifest does not list are still reachable.
        #expect(publication.get("extra.txt").read().text == "not in the manifest")
    }

    @Test func getCompletesTheLinkFromTheManifestAndDropsTheFragment() {
        let fetcher = bookFetcher()
        let publication = Publication(manifest: bookManifest(), fetcher: fetcher)
        let resource = publication.get("c2.xhtml#section-3")
        #expect(resource.read().text == "<c2/>")
        #expect(resource.link.mediaType == .xhtml)
        #expect(resource.link.href == "c2.xhtml")
        #expect(publication.get(Link(href: "style.css")).link.mediaType == .css)
        #expect(publication.get("content%20001.xhtml").read().text == "<c3/>")
    }

    @Test func serviceRoutesComeFirst() {
        let service = RouteService(href: "/~test/route", text: "from the service")
        var builder = PublicationServicesBuilder()
        builder.set("test", { _ in service })
        let publication = Publication(manifest: bookManifest(), fetcher: bookFetcher(), servicesBuilder: builder)
        #expect(publication.get("/~test/route").read().text == "from the service")
        #expect(publication.get("/~test/route#x").read().text == "from the service")
        #expect(publication.get("c1.xhtml").read().text == "<c1/>")
        // The service's links are added to the publication's.
        #expect(publication.links.map(\.href) == ["/~test/route"])
        #expect(publication.findService(RouteService.self) === service)
        publication.close()
        #expect(service.closes.count == 1)
    }

    @Test func closeClosesTheFetcher() {
        let fetcher = bookFetcher()
        Publication(manifest: bookManifest(), fetcher: fetcher).close()
        #expect(fetcher.closes.count == 1)
    }

    @Test func servicesBuilderSetsRemovesAndDecorates() {
        var builder = PublicationServicesBuilder()
        let first = RouteService(href: "/a", text: "A")
        let second = RouteService(href: "/b", text: "B")
        builder.set("one", { _ in first })
        builder.set("two", { _ in second })
        builder.set("nothing", { _ in nil })
        #expect(builder.factory(for: "one") != nil)
        #expect(builder.factory(for: "missing") == nil)
        // Decorating sees the previous factory and may wrap it.
        let decorated = Mutex(false)
        builder.decorate("one") { previous in
            { context in
                decorated.withLock { $0 = true }
                return previous?(context)
            }
        }
        var publication = Publication(manifest: bookManifest(), servicesBuilder: builder)
        #expect(decorated.withLock { $0 })
        #expect(publication.links.map(\.href) == ["/b", "/a"]) // a replaced factory moves to the end
        #expect(publication.get("/a").read().text == "A")
        builder.set("two", nil)
        publication = Publication(manifest: bookManifest(), servicesBuilder: builder)
        #expect(publication.links.map(\.href) == ["/a"])
        #expect(publication.get("/b").read().error?.isNotFound == true)
    }

    @Test func servicesSeeTheManifestAndFetcher() {
        let seen = Mutex<(String?, Int)>((nil, 0))
        var builder = PublicationServicesBuilder()
        builder.set("probe", { context in
            seen.withLock { $0 = (context.manifest.metadata.title, context.fetcher.links.count) }
            return nil
        })
        _ = Publication(manifest: bookManifest(), fetcher: bookFetcher(), servicesBuilder: builder)
        #expect(seen.withLock { $0.0 } == "Book")
        #expect(seen.withLock { $0.1 } == 6)
    }

    @Test func copyKeepsServicesWithoutDuplicatingTheirLinks() {
        var builder = PublicationServicesBuilder()
        builder.set("test", { _ in RouteService(href: "/~test/route", text: "S") })
        let publication = Publication(manifest: bookManifest(), fetcher: bookFetcher(), servicesBuilder: builder)
        let copy = publication.copy { manifest, _, _ in manifest.metadata.localizedTitle = "Copy" }
        #expect(copy.metadata.title == "Copy")
        #expect(copy.links.map(\.href) == ["/~test/route"])
        #expect(copy.get("/~test/route").read().text == "S")
        #expect(publication.metadata.title == "Book")
    }

    @Test func builderAppliesTransformsThenBuilds() {
        var builder = PublicationBuilder(manifest: bookManifest(), fetcher: bookFetcher(), format: Format(kind: .webpub))
        builder.apply { $0.manifest.metadata.localizedTitle = "Transformed" }
        builder.apply(nil)
        builder.apply { builder in
            builder.fetcher = TransformingFetcher(builder.fetcher) { resource in
                TransformingResource(resource) { .success(Data(String(decoding: $0, as: UTF8.self).uppercased().utf8)) }
            }
        }
        let publication = builder.build()
        #expect(publication.metadata.title == "Transformed")
        #expect(publication.format?.kind == .webpub)
        #expect(publication.format?.mediaType == .readiumWebPub)
        #expect(publication.get("c1.xhtml").read().text == "<C1/>")
    }

    @Test func helpersWithoutProtection() async {
        let publication = Publication(manifest: bookManifest())
        #expect(publication.contentProtectionService == nil)
        #expect(!publication.isProtected)
        #expect(!publication.isRestricted)
        #expect(publication.protectionError == nil)
        #expect(publication.credentials == nil)
        #expect(publication.protectionName == nil)
        #expect(publication.protectionLocalizedName == nil)
        let rights = publication.rights
        #expect(await rights.canCopy)
        #expect(await rights.canPrint)
        #expect(await rights.canCopy(text: "anything"))
        #expect(await rights.copy(text: "anything").isGranted)
        #expect(await rights.canPrint(pages: 1000))
        #expect(await rights.print(pages: 1000).isGranted)
        // No protection, no routes.
        #expect(publication.get("/~readium/content-protection").read().error?.isNotFound == true)
    }

    @Test func openingErrorsHaveUserMessages() {
        #expect(OpeningError.notFound("/a/b.epub").userMessage == "no such file: /a/b.epub")
        #expect(OpeningError.incorrectCredentials(nil).userMessage == "incorrect or missing password")
        #expect(OpeningError.forbidden(OpeningError.notFound("x")).userMessage == "access denied (no such file: x)")
        #expect(userMessage(of: ResourceFailure("plain")) == "plain")
        #expect(String(describing: OpeningError.parsingFailed(ResourceFailure("bad"))) == "the publication is damaged: bad")
    }
}

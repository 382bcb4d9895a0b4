import OPDS
import Testing

@Suite struct OPDS2ParserTests {
    @Test func readiumSampleFeed() throws {
        let feed = try OPDSParser.parse(opdsFixture("opds_2_0.json"), url: "https://readium2.feedbooks.net/publications.json")
        #expect(feed.version == .opds2)
        #expect(feed.metadata.title == "Readium 2 OPDS 2.0 Feed")
        #expect(feed.metadata.numberOfItems == 5)
        #expect(feed.link(rel: "self")?.type == "application/opds+json")
        #expect(feed.publications.count == 5)
        let smoke = feed.publications[0]
        #expect(smoke.metadata.title == "Smoke Test FXL")
        #expect(smoke.metadata.authors.count == 7)
        #expect(smoke.metadata.authors.first == "Markus Gylling")
        #expect(smoke.metadata.publishers == ["Readium"])
        #expect(smoke.metadata.languages == ["en"])
        #expect(smoke.images.first?.hasRel("cover") == true)
        #expect(feed.publications[2].metadata.publishers == ["Harper & Brothers, Publishers"])
        // A relative href is resolved against the feed's URL.
        #expect(feed.publications[3].links.first?.href == "https://readium2.feedbooks.net/license.lcpl")
        #expect(feed.publications[4].metadata.summary == "Multiple video tests (see Navigation Document (toc) for details)")
    }

    @Test func navigationGroupsFacetsAndAcquisitions() throws {
        let feed = try OPDSParser.parse(opdsFixture("lectern_opds2.json"), url: "http://127.0.0.1:9000/catalog/root.json")
        #expect(feed.metadata.title == "Test Library")
        #expect(feed.metadata.itemsPerPage == 3)
        #expect(feed.metadata.currentPage == 1)
        #expect(feed.page(.next)?.href == "http://127.0.0.1:9000/catalog/root.json?page=2")
        let search = try #require(feed.searchLink)
        #expect(search.templated)
        #expect(search.href == "http://127.0.0.1:9000/catalog/search{?query,page}")
        #expect(CatalogSearch.url(template: search.href, terms: "moby dick")
            == "http://127.0.0.1:9000/catalog/search?query=moby%20dick")
        #expect(feed.navigation.map(\.title) == ["New arrivals"])
        #expect(feed.navigation[0].properties.numberOfItems == 9)
        #expect(feed.facets.first?.title == "Language")
        #expect(feed.facets.first?.links.map(\.title) == ["English", "French"])
        #expect(feed.groups.first?.title == "Featured")
        #expect(feed.groups.first?.publications.first?.metadata.authors == ["Solo Author"])
        #expect(feed.groups.first?.publications.first?.metadata.languages == ["en", "de"])

        let book = try #require(feed.publications.first)
        #expect(book.metadata.authors == ["Ada Writer", "Bo Coauthor"])
        #expect(book.metadata.identifier == "urn:isbn:9780000000001")
        // The javascript: acquisition is dropped.
        #expect(book.acquisitionLinks.count == 2)
        let borrow = book.acquisitionLinks[0]
        #expect(borrow.hasRel(OPDSRel.borrow))
        #expect(borrow.acquisitionTypes == ["application/vnd.readium.lcp.license.v1.0+json",
                                            "application/vnd.readium.lcp.license.v1.0+json", "application/epub+zip"])
        #expect(borrow.properties.availability?.until == "2026-02-01T00:00:00Z")
        #expect(book.acquisitionLinks[1].properties.prices == [OPDSPrice(value: 7.5, currency: "USD")])
        #expect(book.acquisitionLinks[1].href == "http://127.0.0.1:9000/catalog/buy/1")
        #expect(book.images.first?.href == "http://127.0.0.1:9000/catalog/covers/1.jpg")
    }

    @Test func jsonThatIsNotAFeed() {
        #expect(throws: OPDSError.notACatalog("the JSON document has no \"metadata\"")) {
            try OPDSParser.parse(Array(#"{"title": "x"}"#.utf8), url: "http://h/")
        }
        #expect(throws: OPDSError.self) { try OPDSParser.parse(Array(#"{"metadata": "#.utf8), url: "http://h/") }
    }
}

import OPDS
import Testing

@Suite struct OPDS1ParserTests {
    @Test func readiumWikiSampleFeed() throws {
        let feed = try OPDSParser.parse(opdsFixture("wiki_1_1.opds"), url: "http://test.com")
        #expect(feed.version == .opds1)
        #expect(feed.metadata.identifier == "urn:uuid:433a5d6a-0b8c-4933-af65-4ca4f02763eb")
        #expect(feed.metadata.title == "Unpopular Publications")
        #expect(feed.links.count == 5)
        #expect(feed.link(rel: "related")?.href == "http://test.com/opds-catalogs/vampire.farming.xml")
        #expect(feed.link(rel: "self")?.type == "application/atom+xml;profile=opds-catalog;kind=acquisition")
        #expect(feed.link(rel: "icon")?.href == "http://test.com/images/favicon.ico?t=1516986276")
        #expect(feed.publications.count == 2)
        let bob = feed.publications[0]
        #expect(bob.metadata.title == "Bob, Son of Bob")
        #expect(bob.metadata.authors == ["Bob the Recursive"])
        #expect(bob.metadata.languages == ["en"])
        #expect(bob.metadata.subjects == ["FICTION / Men's Adventure"])
        #expect(bob.metadata.summary?.hasPrefix("The story of the son of the Bob and the gallant part he played in the lives") == true)
        #expect(bob.images.map(\.href) == ["http://test.com/covers/4561.lrg.png", "http://test.com/covers/4561.thmb.gif"])
        #expect(bob.acquisitionLinks.map(\.type) == ["application/epub+zip", "application/x-mobipocket-ebook"])
        let philately = feed.publications[1]
        #expect(philately.metadata.authors == ["Stampy McGee", "Alice McGee", "Harold McGee"])
        #expect(philately.metadata.identifier == "urn:isbn:978029536341X")
        #expect(philately.metadata.publishers == ["StampMeOnline, Inc."])
        #expect(philately.metadata.summary == "The definitive reference for the web-curious philatelist.")
        let buy = try #require(philately.acquisitionLinks.first)
        #expect(buy.hasRel(OPDSRel.buy))
        #expect(buy.properties.prices == [OPDSPrice(value: 18.99, currency: "USD"), OPDSPrice(value: 11.99, currency: "GBP")])
    }

    @Test func navigationFeedEntriesBecomeNavigationLinks() throws {
        let feed = try OPDSParser.parse(opdsFixture("lectern_opds1_navigation.xml"), url: "http://127.0.0.1:8080/catalog/root.xml")
        #expect(feed.metadata.title == "Test Library")
        #expect(feed.publications.isEmpty)
        #expect(feed.navigation.map(\.title) == ["New arrivals", "Popular"])
        #expect(feed.navigation.map(\.href) == ["http://127.0.0.1:8080/catalog/new.xml", "http://127.0.0.1:8080/catalog/popular.xml"])
        #expect(feed.navigation[0].properties.numberOfItems == 9)
        #expect(feed.searchLink?.href == "http://127.0.0.1:8080/catalog/opensearch.xml")
    }

    @Test func acquisitionFeedPaginationFacetsAndIndirectAcquisition() throws {
        let url = "http://127.0.0.1:8080/catalog/new.xml?page=2"
        let feed = try OPDSParser.parse(opdsFixture("lectern_opds1_acquisition.xml"), url: url)
        #expect(feed.metadata.numberOfItems == 9)
        #expect(feed.metadata.itemsPerPage == 3)
        #expect(feed.page(.next)?.href == "http://127.0.0.1:8080/catalog/new.xml?page=3")
        #expect(feed.page(.previous)?.href == "http://127.0.0.1:8080/catalog/new.xml?page=1")
        #expect(feed.page(.first)?.href == "http://127.0.0.1:8080/catalog/new.xml?page=1")
        #expect(feed.page(.last)?.href == "http://127.0.0.1:8080/catalog/new.xml?page=3")
        #expect(feed.link(rel: "start")?.href == "http://127.0.0.1:8080/catalog/root.xml")
        // The javascript: link is dropped, not kept.
        #expect(!feed.links.contains { $0.href.lowercased().hasPrefix("javascript") })
        #expect(feed.facets.map(\.title) == ["Sort", "Language"])
        #expect(feed.facets[0].links.map(\.title) == ["Title", "Author"])
        #expect(feed.facets[0].links[0].properties.isActiveFacet)
        #expect(feed.facets[0].links[0].properties.numberOfItems == 9)
        #expect(feed.facets[1].links[0].href == "http://127.0.0.1:8080/catalog/new.xml?lang=fr")

        #expect(feed.publications.map(\.metadata.title) == ["A Borrowed Book", "An Adobe Book", "Open Book"])
        let borrowed = feed.publications[0]
        #expect(borrowed.metadata.authors == ["Ada Writer", "Bo Coauthor"])
        let borrow = try #require(borrowed.acquisitionLinks.first)
        #expect(borrow.hasRel(OPDSRel.borrow))
        #expect(borrow.href == "http://127.0.0.1:8080/loans/1")
        #expect(borrow.acquisitionTypes == ["application/atom+xml;type=entry;profile=opds-catalog",
                                            "application/vnd.readium.lcp.license.v1.0+json", "application/epub+zip"])
        #expect(borrow.properties.availability == OPDSAvailability(state: "available", since: nil, until: "2026-02-01T00:00:00Z"))
        #expect(borrowed.acquisitionLinks[1].hasRel(OPDSRel.sample))
        #expect(borrowed.images.first?.href == "http://127.0.0.1:8080/catalog/covers/1.jpg")
        let adobe = try #require(feed.publications[1].acquisitionLinks.first)
        #expect(adobe.properties.prices == [OPDSPrice(value: 4.99, currency: "EUR")])
        #expect(adobe.properties.indirectAcquisitions.first?.type == "application/vnd.adobe.adept+xml")
        #expect(feed.publications[2].acquisitionLinks.first?.href == "http://127.0.0.1:8080/files/open.epub")
    }

    @Test func singleEntryDocument() throws {
        let entry = """
            <entry xmlns="http://www.w3.org/2005/Atom"><title>Alone</title><id>urn:x</id>
            <link rel="http://opds-spec.org/acquisition" href="a.epub" type="application/epub+zip"/></entry>
            """
        let feed = try OPDSParser.parse(Array(entry.utf8), url: "https://h.example/e/1.xml")
        #expect(feed.publications.first?.metadata.title == "Alone")
        #expect(feed.publications.first?.acquisitionLinks.first?.href == "https://h.example/e/a.epub")
    }
}

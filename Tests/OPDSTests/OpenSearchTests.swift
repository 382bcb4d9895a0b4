import OPDS
import Testing

@Suite struct OpenSearchTests {
    @Test func descriptionDocumentPicksTheCatalogTemplate() throws {
        let description = try OpenSearchDescription.parse(opdsFixture("lectern_opensearch.xml"),
                                                         url: "http://127.0.0.1:8080/catalog/opensearch.xml")
        #expect(description.shortName == "Test Library")
        #expect(description.templates.count == 2)
        let template = try #require(description.catalogTemplate)
        #expect(template.hasPrefix("http://127.0.0.1:8080/catalog/search.xml?q={searchTerms}"))
        #expect(CatalogSearch.url(template: template, terms: "l'été & co")
            == "http://127.0.0.1:8080/catalog/search.xml?q=l%27%C3%A9t%C3%A9%20%26%20co&start=")
    }

    @Test func aFeedIsNotADescription() {
        #expect(throws: OPDSError.self) {
            try OpenSearchDescription.parse(opdsFixture("wiki_1_1.opds"), url: "http://h/")
        }
    }
}

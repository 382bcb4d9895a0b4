import OPDS
import Testing

/// Feeds built to hurt: each ends in a clear error or in safe output, never a crash or a hang.
@Suite struct HostileFeedTests {
    @Test func billionLaughsIsRefused() {
        #expect(throws: OPDSError.malformed("malformed XML (Detected an entity reference loop)")) {
            try OPDSParser.parse(opdsFixture("hostile/billion_laughs.xml"), url: "http://h/feed.xml")
        }
    }

    @Test func escapeCharactersAreNotXML() {
        let xml = "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>a\u{1B}]0;pwned\u{07}</title></feed>"
        #expect(throws: OPDSError.self) { try OPDSParser.parse(Array(xml.utf8), url: "http://h/") }
    }

    @Test func externalEntitiesAreNeverResolved() throws {
        let feed = try OPDSParser.parse(opdsFixture("hostile/xxe.xml"), url: "http://h/feed.xml")
        #expect(!feed.metadata.title.contains("root:"))
        #expect(feed.metadata.title.hasPrefix("Secret:"))
    }

    @Test func controlCharactersAndScriptURLsAreRemoved() throws {
        let feed = try OPDSParser.parse(opdsFixture("hostile/control_characters.xml"), url: "http://h/feed.xml")
        let texts = [feed.metadata.title] + feed.publications.map(\.metadata.title)
        for text in texts {
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E })
        }
        #expect(feed.metadata.title == "Bad2J0;pwned titlex")
        #expect(feed.publications[0].metadata.title == "Entry red line")
        #expect(feed.publications[0].acquisitionLinks.map(\.href) == ["http://h/ok.epub"])
    }

    @Test func captivePortalIsNotACatalog() {
        #expect(throws: OPDSError.notACatalog("an HTML page, perhaps a network's sign-in page")) {
            try OPDSParser.parse(opdsFixture("hostile/captive_portal.html"), url: "http://h/feed.xml")
        }
    }

    @Test func deepNestingEndsInAnError() {
        let depth = 100_000
        let xml = #"<feed xmlns="http://www.w3.org/2005/Atom"><title>"#
            + String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth) + "</title></feed>"
        #expect(throws: OPDSError.self) { try OPDSParser.parse(Array(xml.utf8), url: "http://h/") }
        let json = #"{"metadata": {"title": "#
            + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}}"
        #expect(throws: OPDSError.self) { try OPDSParser.parse(Array(json.utf8), url: "http://h/") }
    }

    @Test func deepIndirectAcquisitionIsCut() throws {
        let depth = 200
        let xml = #"<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog"><title>t</title>"#
            + #"<entry><title>e</title><link rel="http://opds-spec.org/acquisition" href="a" type="text/html">"#
            + String(repeating: #"<opds:indirectAcquisition type="application/epub+zip">"#, count: depth)
            + String(repeating: "</opds:indirectAcquisition>", count: depth) + "</link></entry></feed>"
        let feed = try OPDSParser.parse(Array(xml.utf8), url: "http://h/")
        let types = try #require(feed.publications.first?.acquisitionLinks.first?.acquisitionTypes)
        #expect(types.count == 9)
    }

    @Test func oversizedDocumentIsRefused() {
        let bytes = [UInt8](repeating: 0x20, count: OPDSParser.maxDocumentSize + 1)
        #expect(throws: OPDSError.tooLarge(bytes: OPDSParser.maxDocumentSize + 1, limit: OPDSParser.maxDocumentSize)) {
            try OPDSParser.parse(bytes, url: "http://h/")
        }
    }

    @Test func emptyAndBinaryDocuments() {
        #expect(throws: OPDSError.notACatalog("the document is empty")) { try OPDSParser.parse([], url: "http://h/") }
        #expect(throws: OPDSError.notACatalog("neither XML nor JSON")) { try OPDSParser.parse([0x50, 0x4B, 3, 4], url: "http://h/") }
    }
}

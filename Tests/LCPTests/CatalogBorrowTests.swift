import Foundation
import Testing
import TestSupport

/// `lectern catalog get` on an OPDS borrow link whose type is an LCP license: the license is
/// fetched from the catalog, the publication acquired through the License Status test server
/// (as `lectern acquire` does) and imported.
@Suite struct CatalogBorrowTests {
    let server: StatusServer
    let lectern = LecternProcess()
    let environment: [String: String]

    init() throws {
        server = try StatusServer()
        environment = ["LECTERN_LCP_ANCHORS": TestPKI.shared.directory + "/ca/ca.pem", "LECTERN_LCP_CRL_URL": "none"]
    }

    @Test func borrowsAnLCPBookFromAnOPDS2Feed() throws {
        let served = try ServedPublication.make(on: server)
        let feed = """
            {"metadata": {"title": "Lending Library"}, "publications": [
              {"metadata": {"title": "Served Book", "author": "Lender"},
               "links": [{"rel": "http://opds-spec.org/acquisition/borrow", "href": "/borrow/1",
                          "type": "application/vnd.readium.lcp.license.v1.0+json",
                          "properties": {"indirectAcquisition": [{"type": "application/vnd.readium.lcp.license.v1.0+json",
                                                                  "child": [{"type": "application/epub+zip"}]}]}}]}
            ]}
            """
        let catalog = try TestHTTPServer(routes: [
            TestHTTPRoute("/catalog.json", headers: ["Content-Type": "application/opds+json"], text: feed),
            TestHTTPRoute("/borrow/1", headers: ["Content-Type": "application/vnd.readium.lcp.license.v1.0+json"],
                          body: Fixtures.bytes(served.lcplPath)),
        ])
        let browse = try lectern.run(["catalog", catalog.url("/catalog.json")], environment: environment)
        #expect(browse.status == 0, "\(browse.stderr)")
        #expect(browse.stdout.contains("borrow: EPUB (LCP)"))
        let folder = Fixtures.temporaryDirectory("catalog-borrow")
        let result = try lectern.run(["catalog", "get", catalog.url("/catalog.json"), "1", "--output", folder],
                                     environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == folder + "/Served Book.epub\n")
        #expect(result.stderr.contains("100%"))
        let check = try lectern.run(["check", "--passphrase", "open sesame", folder + "/Served Book.epub"],
                                    environment: environment)
        #expect(check.status == 0, "\(check.stderr)")
        let list = try lectern.run(["list", "--json"], environment: environment)
        #expect(list.stdout.contains("Served Book.epub"), "\(list.stdout)")
    }
}

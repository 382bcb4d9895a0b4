import Foundation
import Testing
import TestSupport

/// `lectern catalog get` on an LCP borrow holds the publication's download to the same size
/// limit as an open-access one, and leaves nothing behind (issue #27 item 9).
@Suite struct CatalogBorrowLimitTests {
    let server: StatusServer
    let lectern = LecternProcess()
    let environment: [String: String]

    init() throws {
        server = try StatusServer()
        environment = ["LECTERN_LCP_ANCHORS": TestPKI.shared.directory + "/ca/ca.pem", "LECTERN_LCP_CRL_URL": "none"]
    }

    @Test func aBorrowedPublicationPastTheSizeLimitIsStoppedAndNothingIsLeft() throws {
        let served = try ServedPublication.make(on: server)
        #expect(served.packageData.count > 2048)
        let feed = """
            {"metadata": {"title": "Lending Library"}, "publications": [
              {"metadata": {"title": "Served Book"},
               "links": [{"rel": "http://opds-spec.org/acquisition/borrow", "href": "/borrow/1",
                          "type": "application/vnd.readium.lcp.license.v1.0+json"}]}
            ]}
            """
        let catalog = try TestHTTPServer(routes: [
            TestHTTPRoute("/catalog.json", headers: ["Content-Type": "application/opds+json"], text: feed),
            TestHTTPRoute("/borrow/1", headers: ["Content-Type": "application/vnd.readium.lcp.license.v1.0+json"],
                          body: Fixtures.bytes(served.lcplPath)),
        ])
        let folder = Fixtures.temporaryDirectory("catalog-borrow-limit")
        try Data("notes".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
        var limited = environment
        limited["LECTERN_DOWNLOAD_MAX_SIZE"] = "1K"
        let result = try lectern.run(["catalog", "get", catalog.url("/catalog.json"), "1", "--output", folder], environment: limited)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("larger than 1 KiB"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["notes.txt"])
    }
}

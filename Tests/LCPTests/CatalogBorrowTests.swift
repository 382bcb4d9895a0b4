import Foundation
import LibCrypto
import Testing
import TestSupport

/// `lectern catalog get` on an OPDS borrow link whose type is an LCP license: the license is
/// fetched from the catalog, the publication acquired through the License Status test server
/// (as `lectern acquire` does) and imported; the first one is also returned.
@Suite struct CatalogBorrowTests {
    let server: StatusServer
    let lectern = LecternProcess()
    let environment: [String: String]

    init() throws {
        server = try StatusServer()
        environment = ["LECTERN_LCP_ANCHORS": TestPKI.shared.directory + "/ca/ca.pem", "LECTERN_LCP_CRL_URL": "none"]
    }

    @Test func borrowsAnLCPBookFromAnOPDS2Feed() throws {
        // A loan: its License Status Document (served by the test server) offers return.
        let signer = LicenseSpec().signer
        let served = try ServedPublication.make(on: server) { spec in spec.statusURL = server.statusURL(spec.id) }
        try server.configure(served.license.id, ["license": served.license.text, "signer": ["key": signer.keyPath],
                                                 "potential_end": "2027-06-01T00:00:00Z"])
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
        // The loan goes back to the library: returned through its License Status Document, and
        // the book no longer opens.
        let returned = try lectern.run(["license", "return", folder + "/Served Book.epub"], environment: environment)
        #expect(returned.status == 0, "\(returned.stderr)")
        let after = try lectern.run(["check", "--passphrase", "open sesame", folder + "/Served Book.epub"],
                                    environment: environment)
        #expect(after.status == 3)
        #expect(after.stdout.contains("This book was returned on "), "\(after.stdout)")
    }

    /// A catalog that signs in with Basic hands out the LCP user key with the borrow link: the
    /// license link gets the credentials (same origin), and the book opens without asking.
    @Test func aBorrowWithTheHashedPassphraseOpensWithoutAsking() throws {
        let served = try ServedPublication.make(on: server)
        let userKey = Digest.sha256(Array("open sesame".utf8)).hexString
        let feed = """
            {"metadata": {"title": "Lending Library"}, "publications": [
              {"metadata": {"title": "Served Book"},
               "links": [{"rel": "http://opds-spec.org/acquisition/borrow", "href": "/borrow/1",
                          "type": "application/vnd.readium.lcp.license.v1.0+json",
                          "properties": {"lcp_hashed_passphrase": "\(userKey)"}}]}
            ]}
            """
        let credentials = "Basic " + Data("card:pin".utf8).base64EncodedString()
        let document = Data("""
            {"title": "Lending Library", "authentication": [{"type": "http://opds-spec.org/auth/basic"}]}
            """.utf8)
        var feedRoute = TestHTTPRoute("/catalog.json", headers: ["Content-Type": "application/opds+json"], text: feed)
        var licenseRoute = TestHTTPRoute("/borrow/1", headers: ["Content-Type": "application/vnd.readium.lcp.license.v1.0+json"],
                                         body: Fixtures.bytes(served.lcplPath))
        for index in [0, 1] {
            var route = index == 0 ? feedRoute : licenseRoute
            route.authorization = [credentials]
            route.refusal = (401, ["Content-Type": "application/opds-authentication+json"], document)
            if index == 0 { feedRoute = route } else { licenseRoute = route }
        }
        let catalog = try TestHTTPServer(routes: [feedRoute, licenseRoute])
        #expect(try lectern.run(["catalog", "add", catalog.url("/catalog.json"), "--name", "lending",
                                 "--username", "card", "--password", "pin"], environment: environment).status == 0)
        let folder = Fixtures.temporaryDirectory("catalog-borrow-key")
        let result = try lectern.run(["catalog", "get", "lending", "Served Book", "--output", folder], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == folder + "/Served Book.epub\n")
        #expect(catalog.requests.last { $0.path == "/borrow/1" }?.headers["authorization"] == credentials)
        let check = try lectern.run(["check", folder + "/Served Book.epub"], environment: environment)
        #expect(check.status == 0, "\(check.stderr)")
    }

    /// The borrowing best practice: the borrow link (which takes only POST here) answers an
    /// OPDS publication whose acquisition link is the license, with the user key in base64.
    @Test func aPostedBorrowAnsweringAPublicationGivesTheLicenseAndItsKey() throws {
        let served = try ServedPublication.make(on: server)
        let userKey = Data(Digest.sha256(Array("open sesame".utf8))).base64EncodedString()
        let feed = """
            {"metadata": {"title": "Lending Library"}, "publications": [
              {"metadata": {"title": "Served Book"},
               "links": [{"rel": "http://opds-spec.org/acquisition/borrow", "href": "/borrow/2",
                          "type": "application/opds-publication+json",
                          "properties": {"indirectAcquisition": [{"type": "application/vnd.readium.lcp.license.v1.0+json",
                                                                  "child": [{"type": "application/epub+zip"}]}]}}]}
            ]}
            """
        let loan = """
            {"metadata": {"title": "Served Book"},
             "links": [{"rel": "http://opds-spec.org/acquisition", "href": "/license/2",
                        "type": "application/vnd.readium.lcp.license.v1.0+json",
                        "properties": {"availability": {"state": "available"}, "lcp_hashed_passphrase": "\(userKey)"}}]}
            """
        let catalog = try TestHTTPServer(routes: [
            TestHTTPRoute("/catalog.json", headers: ["Content-Type": "application/opds+json"], text: feed),
            TestHTTPRoute("/borrow/2", headers: ["Content-Type": "application/opds-publication+json"], text: loan, methods: ["POST"]),
            TestHTTPRoute("/license/2", headers: ["Content-Type": "application/vnd.readium.lcp.license.v1.0+json"],
                          body: Fixtures.bytes(served.lcplPath)),
        ])
        let folder = Fixtures.temporaryDirectory("catalog-borrow-post")
        let result = try lectern.run(["catalog", "get", catalog.url("/catalog.json"), "1", "--output", folder],
                                     environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == folder + "/Served Book.epub\n")
        let borrows = catalog.requests.filter { $0.path == "/borrow/2" }.map(\.method)
        #expect(borrows == ["GET", "POST"])
        let check = try lectern.run(["check", folder + "/Served Book.epub"], environment: environment)
        #expect(check.status == 0, "\(check.stderr)")
    }
}

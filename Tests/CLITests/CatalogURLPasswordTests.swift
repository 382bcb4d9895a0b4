import Foundation
import Testing
import TestSupport

/// A password written in a catalog's URL (`http://bob:S3cr3t@host/…`) goes to the credential
/// store or the session: never printed by `catalog list`/`browse`, never kept in the feed cache
/// (issue #27 item 10).
@Suite struct CatalogURLPasswordTests {
    let lectern = LecternProcess()

    static let feed = """
        <feed xmlns="http://www.w3.org/2005/Atom"><id>p</id><title>Members' shelf</title>
        <entry><title>Private Book</title><id>pb</id>
        <link rel="http://opds-spec.org/acquisition" href="/files/private.epub" type="application/epub+zip"/></entry></feed>
        """

    static let basic = "Basic " + Data("bob:S3cr3t".utf8).base64EncodedString()

    func server() throws -> TestHTTPServer {
        var protected = TestHTTPRoute("/private.xml", headers: ["Content-Type": "application/atom+xml"], text: Self.feed)
        protected.authorization = [Self.basic]
        protected.refusal = (401, ["WWW-Authenticate": "Basic realm=\"members\""], Data())
        return try TestHTTPServer(routes: [
            protected,
            TestHTTPRoute("/public.xml", headers: ["Content-Type": "application/atom+xml"], text: Self.feed),
        ])
    }

    /// Every file under `folder`, read (the feed cache is small).
    static func files(under folder: String) -> [(String, Data)] {
        let enumerator = FileManager.default.enumerator(atPath: folder)
        var found: [(String, Data)] = []
        while let relative = enumerator?.nextObject() as? String {
            if let data = FileManager.default.contents(atPath: folder + "/" + relative) { found.append((relative, data)) }
        }
        return found
    }

    @Test func aSavedCatalogsPasswordLeavesItsURL() throws {
        let server = try server()
        let url = "http://bob:S3cr3t@127.0.0.1:\(server.port)/private.xml"
        let add = try lectern.run(["catalog", "add", url, "--name", "lib"])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(!add.stdout.contains("S3cr3t") && !add.stderr.contains("S3cr3t"))
        #expect(add.stdout.contains("signing in as bob"), "\(add.stdout)")

        let list = try lectern.run(["catalog", "list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(!list.stdout.contains("S3cr3t"), "\(list.stdout)")
        #expect(list.stdout.contains("lib  \(server.url("/private.xml"))  (as bob)"), "\(list.stdout)")
        let json = try lectern.run(["catalog", "list", "--json"])
        #expect(!json.stdout.contains("S3cr3t"), "\(json.stdout)")
        let catalogs = try #require(json.json as? [[String: Any]])
        #expect(catalogs.first?["url"] as? String == server.url("/private.xml"))
        #expect(catalogs.first?["username"] as? String == "bob")

        // It still signs in, with the password from the store.
        let browse = try lectern.run(["catalog", "browse", "lib", "--json"])
        #expect(browse.status == 0, "\(browse.stderr)")
        #expect(!browse.stdout.contains("S3cr3t"))
        #expect((browse.json as? [String: Any])?["title"] as? String == "Members' shelf")
        #expect(server.requests.last?.headers["authorization"] == Self.basic)
    }

    @Test func aURLWithAPasswordIsNeitherPrintedNorCached() throws {
        let server = try server()
        for path in ["/public.xml", "/private.xml"] {
            let result = try lectern.run(["catalog", "browse", "--json", "http://bob:S3cr3t@127.0.0.1:\(server.port)\(path)"])
            #expect(result.status == 0, "\(path): \(result.stderr)")
            #expect(!result.stdout.contains("S3cr3t") && !result.stderr.contains("S3cr3t"), "\(result.stdout)")
            #expect((result.json as? [String: Any])?["url"] as? String == server.url(path))
        }
        for (name, data) in Self.files(under: lectern.home + "/cache") {
            #expect(!String(decoding: data, as: UTF8.self).contains("S3cr3t"), "\(name) keeps the password")
        }
    }
}

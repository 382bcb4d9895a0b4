import Foundation
import Testing
import TestSupport

/// A saved catalog's name wins over a file or folder of that name in the current folder, and
/// standard error says how to have the file (issue #27 item 17).
@Suite struct CatalogNameOrFileTests {
    let lectern = LecternProcess()

    static func feed(_ title: String) -> String {
        """
        <feed xmlns="http://www.w3.org/2005/Atom"><id>\(title)</id><title>\(title)</title>
        <entry><title>A Book</title><id>b</id>
        <link rel="http://opds-spec.org/acquisition" href="/files/a.epub" type="application/epub+zip"/></entry></feed>
        """
    }

    @Test func theSavedCatalogIsTakenOverAFolderOrFileOfItsName() throws {
        let server = try TestHTTPServer(routes: [
            TestHTTPRoute("/feed.xml", headers: ["Content-Type": "application/atom+xml"], text: Self.feed("Saved catalog")),
        ])
        #expect(try lectern.run(["catalog", "add", server.url("/feed.xml"), "--name", "tls"]).status == 0)
        let here = Fixtures.temporaryDirectory("catalog-name-folder")
        try FileManager.default.createDirectory(atPath: here + "/tls", withIntermediateDirectories: true)
        let browse = try lectern.run(["catalog", "browse", "tls", "--json"], directory: here)
        #expect(browse.status == 0, "\(browse.stderr)")
        #expect((browse.json as? [String: Any])?["title"] as? String == "Saved catalog")
        #expect(browse.stderr.contains("the saved catalog of that name (for the file here, give ./tls)"), "\(browse.stderr)")

        let withFile = Fixtures.temporaryDirectory("catalog-name-file")
        try Data(Self.feed("A file").utf8).write(to: URL(fileURLWithPath: withFile + "/tls"))
        let saved = try lectern.run(["catalog", "tls", "--json"], directory: withFile)
        #expect((saved.json as? [String: Any])?["title"] as? String == "Saved catalog", "\(saved.stderr)")
        let file = try lectern.run(["catalog", "./tls", "--json"], directory: withFile)
        #expect(file.status == 0, "\(file.stderr)")
        #expect((file.json as? [String: Any])?["title"] as? String == "A file")
        #expect(!file.stderr.contains("saved catalog"))
    }
}

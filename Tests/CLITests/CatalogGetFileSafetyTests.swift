import Foundation
import Testing
import TestSupport

/// `lectern catalog get` in a folder that holds the person's own files, against a loopback
/// catalog whose entries are named like them, answer 404, send too much or crawl
/// (issue #27 items 3 and 9).
@Suite struct CatalogGetFileSafetyTests {
    let lectern = LecternProcess()

    static func entry(_ title: String, _ href: String, type: String) -> String {
        """
        <entry><title>\(title)</title><id>urn:test:\(href)</id><updated>2026-01-01T00:00:00Z</updated>
        <link rel="http://opds-spec.org/acquisition/open-access" href="\(href)" type="\(type)"/></entry>
        """
    }

    static let feed = """
        <feed xmlns="http://www.w3.org/2005/Atom"><id>urn:test:shelf</id><title>Shelf</title>
        <updated>2026-01-01T00:00:00Z</updated>
        \(entry("Moby Dick", "/files/moby.epub", type: "application/epub+zip"))
        \(entry("My Thesis", "/files/thesis.pdf", type: "application/pdf"))
        \(entry("Huge", "/files/huge.epub", type: "application/epub+zip"))
        \(entry("Huge Unsized", "/files/huge-unsized.epub", type: "application/epub+zip"))
        \(entry("Slow", "/files/slow.epub", type: "application/epub+zip"))
        </feed>
        """

    /// 3 MiB that are not a publication.
    static let huge = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })

    func server() throws -> TestHTTPServer {
        var unsized = TestHTTPRoute("/files/huge-unsized.epub", headers: ["Content-Type": "application/epub+zip"], body: Self.huge)
        unsized.sendsContentLength = false
        var slow = TestHTTPRoute("/files/slow.epub", headers: ["Content-Type": "application/epub+zip"],
                                 body: Data(repeating: 0x41, count: 100_000))
        slow.trickle = (bytes: 1, interval: 0.2)
        return try TestHTTPServer(routes: [
            TestHTTPRoute("/feed.xml", headers: ["Content-Type": "application/atom+xml"], text: Self.feed),
            TestHTTPRoute("/files/moby.epub", headers: ["Content-Type": "application/epub+zip"],
                          bodyFile: Fixtures.sample("epub/idpf-wasteland.epub")),
            TestHTTPRoute("/files/huge.epub", headers: ["Content-Type": "application/epub+zip"], body: Self.huge),
            unsized, slow,
        ])
    }

    /// A folder with the person's files: one named as the entry's download would be, one other.
    static func folder(holding name: String) throws -> String {
        let folder = Fixtures.temporaryDirectory("catalog-get-safety")
        try Data("the person's own \(name)".utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        try Data("notes".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
        return folder
    }

    static func contents(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test func aDownloadNamedLikeAFileThereTakesAFreeName() throws {
        let server = try server()
        let folder = try Self.folder(holding: "Moby_Dick.epub")
        let result = try lectern.run(["catalog", "get", server.url("/feed.xml"), "Moby Dick", "--output", folder])
        #expect(result.status == 0, "\(result.stderr)")
        let path = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(path == folder + "/Moby_Dick (2).epub")
        #expect(FileManager.default.contents(atPath: path) == Fixtures.bytes(Fixtures.sample("epub/idpf-wasteland.epub")))
        #expect(FileManager.default.contents(atPath: folder + "/Moby_Dick.epub") == Data("the person's own Moby_Dick.epub".utf8))
        #expect(Self.contents(folder) == ["Moby_Dick (2).epub", "Moby_Dick.epub", "notes.txt"])
    }

    @Test func aFailedDownloadLeavesTheFileOfThatNameAlone() throws {
        let server = try server()
        let folder = try Self.folder(holding: "My_Thesis.pdf")
        let result = try lectern.run(["catalog", "get", server.url("/feed.xml"), "My Thesis", "--output", folder])
        #expect(result.status == 1)
        #expect(result.stderr.contains("HTTP 404"), "\(result.stderr)")
        #expect(FileManager.default.contents(atPath: folder + "/My_Thesis.pdf") == Data("the person's own My_Thesis.pdf".utf8))
        #expect(Self.contents(folder) == ["My_Thesis.pdf", "notes.txt"])
    }

    @Test func aDownloadPastTheSizeLimitIsStoppedAndRemoved() throws {
        let server = try server()
        let folder = try Self.folder(holding: "Huge.epub")
        // Announced too large (Content-Length), by the environment's limit.
        let announced = try lectern.run(["catalog", "get", server.url("/feed.xml"), "Huge", "--output", folder],
                                        environment: ["LECTERN_DOWNLOAD_MAX_SIZE": "1M"])
        #expect(announced.status == 1)
        #expect(announced.stderr.contains("larger than 1 MiB"), "\(announced.stderr)")
        // Not announced: stopped as it passes the limit of --max-size.
        let unannounced = try lectern.run(["catalog", "get", server.url("/feed.xml"), "Huge Unsized", "--output", folder,
                                           "--max-size", "512K"])
        #expect(unannounced.status == 1)
        #expect(unannounced.stderr.contains("larger than 512 KiB"), "\(unannounced.stderr)")
        #expect(Self.contents(folder) == ["Huge.epub", "notes.txt"])
        #expect(FileManager.default.contents(atPath: folder + "/Huge.epub") == Data("the person's own Huge.epub".utf8))
        let refused = try lectern.run(["catalog", "get", server.url("/feed.xml"), "Huge", "--output", folder, "--max-size", "lots"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--max-size lots"))
    }

    @Test func aDownloadTheLibraryRefusesIsRemoved() throws {
        let server = try server()
        let folder = try Self.folder(holding: "Huge.epub")
        let result = try lectern.run(["catalog", "get", server.url("/feed.xml"), "Huge", "--output", folder])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Huge (2).epub: removed"), "\(result.stderr)")
        #expect(Self.contents(folder) == ["Huge.epub", "notes.txt"])
    }

    @Test func aCrawlingDownloadIsAbandonedAndRemoved() throws {
        let server = try server()
        let folder = try Self.folder(holding: "Slow.epub")
        // 5 bytes a second of 100,000: without a limit on crawling, hours.
        let result = try lectern.run(["catalog", "get", server.url("/feed.xml"), "Slow", "--output", folder],
                                     timeout: 40, environment: ["LECTERN_DOWNLOAD_STALL_SECONDS": "2"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("the download stalled"), "\(result.stderr)")
        #expect(Self.contents(folder) == ["Slow.epub", "notes.txt"])
        #expect(FileManager.default.contents(atPath: folder + "/Slow.epub") == Data("the person's own Slow.epub".utf8))
    }
}

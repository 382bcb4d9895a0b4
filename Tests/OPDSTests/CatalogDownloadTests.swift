import Foundation
import OPDS
import Shared
import Testing
import TestSupport

/// ``CatalogDownload`` over libcurl and a loopback server, ``DownloadLimits`` and
/// ``CatalogUserInfo`` on their own.
@Suite struct CatalogDownloadTests {
    static func folder() -> String { Fixtures.temporaryDirectory("catalog-download") }

    @Test func aLinkNamedLikeASymlinkThereNeitherFollowsNorReplacesIt() throws {
        let server = try TestHTTPServer(routes: [TestHTTPRoute("/book.epub", text: "the catalog's bytes")])
        let folder = Self.folder(), elsewhere = Self.folder()
        try Data("victim".utf8).write(to: URL(fileURLWithPath: elsewhere + "/victim"))
        try FileManager.default.createSymbolicLink(atPath: folder + "/Book.epub", withDestinationPath: elsewhere + "/victim")
        let result = CatalogDownload.download(server.url("/book.epub"), into: folder, name: "Book.epub", client: CurlHTTPClient())
        #expect(try result.get() == folder + "/Book (2).epub")
        #expect(FileManager.default.contents(atPath: folder + "/Book (2).epub") == Data("the catalog's bytes".utf8))
        #expect(FileManager.default.contents(atPath: elsewhere + "/victim") == Data("victim".utf8))
    }

    @Test func aFailureRemovesOnlyTheDownloadsOwnFile() throws {
        let server = try TestHTTPServer(routes: [TestHTTPRoute("/gone.epub", status: 410, text: "gone")])
        let folder = Self.folder()
        try Data("mine".utf8).write(to: URL(fileURLWithPath: folder + "/Gone.epub"))
        let result = CatalogDownload.download(server.url("/gone.epub"), into: folder, name: "Gone.epub", client: CurlHTTPClient())
        guard case .failure(.status(410)) = result else { Issue.record("\(result)"); return }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["Gone.epub"])
        #expect(FileManager.default.contents(atPath: folder + "/Gone.epub") == Data("mine".utf8))
    }

    @Test func sizesAndTheEnvironmentAreRead() {
        #expect(DownloadLimits.size("1048576") == 1 << 20)
        #expect(DownloadLimits.size("512K") == 512 << 10)
        #expect(DownloadLimits.size("500m") == 500 << 20)
        #expect(DownloadLimits.size("2G") == 2 << 30)
        #expect(DownloadLimits.size("1.5GiB") == 3 << 29)
        #expect(DownloadLimits.size("0") == nil && DownloadLimits.size("-1M") == nil && DownloadLimits.size("lots") == nil)
        #expect(DownloadLimits().maxBytes == 2 << 30)
        let read = try? DownloadLimits.fromEnvironment(["LECTERN_DOWNLOAD_MAX_SIZE": "1M", "LECTERN_DOWNLOAD_STALL_SECONDS": "2.5"]).get()
        #expect(read?.maxBytes == 1 << 20 && read?.stallSeconds == 2.5)
        guard case .failure(let error) = DownloadLimits.fromEnvironment(["LECTERN_DOWNLOAD_STALL_SECONDS": "0"]) else {
            Issue.record("a stall timeout of 0 was accepted"); return
        }
        #expect(error.description.contains("LECTERN_DOWNLOAD_STALL_SECONDS=0"))
    }

    @Test func userInformationIsTakenOutOfAURL() {
        let split = CatalogUserInfo(splitting: "https://bob%40home:S3cr3t%3A@books.example:8443/opds?x=a@b")
        #expect(split.url == "https://books.example:8443/opds?x=a@b")
        #expect(split.username == "bob@home" && split.password == "S3cr3t:")
        let userOnly = CatalogUserInfo(splitting: "http://card@books.example/")
        #expect(userOnly.url == "http://books.example/" && userOnly.username == "card" && userOnly.password == nil)
        let none = CatalogUserInfo(splitting: "http://books.example/a@b")
        #expect(none.url == "http://books.example/a@b" && !none.hadUserInfo)
        #expect(CatalogUserInfo(splitting: "feed@home.xml").url == "feed@home.xml")
    }
}

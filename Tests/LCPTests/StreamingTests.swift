import Foundation
@testable import LCP
import Shared
import Streamer
import Testing
import TestSupport

/// Opening a bare `.lcpl`: the publication is read from the (loopback) content server with
/// ranged requests, never downloaded whole when the server honours ranges, and downloaded
/// into memory when it does not.
@Suite struct StreamingTests {
    let server: StatusServer

    init() throws {
        server = try StatusServer()
    }

    /// Every GET of the publication, from the server's log.
    func publicationRequests(_ served: ServedPublication) throws -> [StatusServer.LoggedRequest] {
        try server.log().filter { $0.path == URL(string: served.url)!.path }
    }

    @Test func aBareLicenseOpensItsEPUBWithRangedRequestsOnly() async throws {
        let served = try ServedPublication.make(on: server)
        let publication = try await TestLCP().open(served.lcplPath, credentials: "open sesame")
        defer { publication.close() }
        #expect(!publication.isRestricted)
        #expect(publication.metadata.title == "Forged LCP Book")
        for chapter in served.chapters {
            #expect(try publication.read(chapter.path) == chapter.plaintext, "\(chapter.path)")
        }
        let requests = try publicationRequests(served)
        let gets = requests.filter { $0.method == "GET" }
        #expect(!gets.isEmpty)
        #expect(gets.allSatisfy { $0.range != nil }, "\(gets.map(\.range))")
        #expect(requests.contains { $0.method == "HEAD" })
        #expect(publication.lcpLicense?.license.id == served.license.id)
    }

    /// Opening without reading the content (what `lectern info` does) reads a small part of a
    /// large package.
    @Test func openingReadsLittleOfALargePackage() async throws {
        var chapters = PackageForge.defaultResources()
        chapters.append(ForgedResource("OEBPS/images/huge.png", Data([0x89, 0x50, 0x4E, 0x47]) + Data(LicenseForge.randomBytes(3_000_000)),
                                       mediaType: "image/png"))
        let served = try ServedPublication.make(on: server, chapters: chapters)
        let publication = try await TestLCP().open(served.lcplPath, credentials: "open sesame")
        defer { publication.close() }
        #expect(publication.metadata.title == "Forged LCP Book")
        var fetched = 0
        for request in try publicationRequests(served) where request.method == "GET" {
            let bounds = try #require(request.range?.dropFirst("bytes=".count).split(separator: "-", omittingEmptySubsequences: false))
            if bounds.first?.isEmpty == true { fetched += Int(bounds.last!)! } else { fetched += Int(bounds[1])! - Int(bounds[0])! + 1 }
        }
        #expect(fetched < served.packageData.count / 4, "\(fetched) of \(served.packageData.count)")
        // A range in the middle of the stored image costs a few blocks.
        #expect(try publication.get("OEBPS/images/huge.png").read(range: 1_500_000..<1_500_100).get()
                == chapters.last!.plaintext.subdata(in: 1_500_000..<1_500_100))
    }

    @Test func aServerIgnoringRangesIsReadOnceIntoMemory() async throws {
        let served = try ServedPublication.make(on: server, serve: ["ranges": false])
        let publication = try await TestLCP().open(served.lcplPath, credentials: "open sesame")
        defer { publication.close() }
        for chapter in served.chapters {
            #expect(try publication.read(chapter.path) == chapter.plaintext)
        }
        let gets = try publicationRequests(served).filter { $0.method == "GET" }
        #expect(gets.count == 1)
    }

    @Test func aServerIgnoringRangesWithATooLargePackageIsRefusedClearly() async throws {
        let served = try ServedPublication.make(on: server, serve: ["ranges": false])
        await #expect {
            try await TestLCP(maxInMemoryPublicationSize: 10_000).open(served.lcplPath, credentials: "open sesame")
        } throws: { error in
            guard case .unavailable(let cause?) = error as? OpeningError else { return false }
            return userMessage(of: cause).contains("lectern acquire")
        }
    }

    /// The reference server labels LCPDF packages `application/epub+zip`: the content decides.
    @Test func aMislabelledLCPDFIsSniffed() async throws {
        let served = try ServedPublication.make(on: server, kind: .lcpdf)
        let publication = try await TestLCP().open(served.lcplPath, credentials: "open sesame")
        defer { publication.close() }
        #expect(publication.readingOrder.first?.mediaType?.string == "application/pdf")
        #expect(try publication.read("publication.pdf") == served.chapters[0].plaintext)
    }

    @Test func aRedirectedPublicationIsFollowed() async throws {
        let served = try ServedPublication.make(on: server) { $0.publicationURL = server.base + "/redirect/files/book" }
        let publication = try await TestLCP().open(served.lcplPath, credentials: "open sesame")
        defer { publication.close() }
        #expect(try publication.read("OEBPS/chapter2.xhtml") == served.chapters[1].plaintext)
    }

    /// Without the passphrase the publication still opens, restricted: metadata and table of
    /// contents are in clear.
    @Test func aLockedLicenseOpensRestricted() async throws {
        let served = try ServedPublication.make(on: server)
        let publication = try await TestLCP().open(served.lcplPath)
        defer { publication.close() }
        #expect(publication.isRestricted)
        #expect(publication.metadata.title == "Forged LCP Book")
        #expect(throws: (any Error).self) { try publication.read("OEBPS/chapter2.xhtml") }
    }

    /// A forged license never reaches the network.
    @Test func aTamperedLicenseIsRefusedBeforeAnyDownload() async throws {
        let served = try ServedPublication.make(on: server)
        let tampered = served.license.tampered { $0.replacingOccurrences(of: "The usual one", with: "The usual 0ne") }
        try tampered.write(to: URL(fileURLWithPath: served.lcplPath))
        await #expect(throws: OpeningError.self) { try await TestLCP().open(served.lcplPath, credentials: "open sesame") }
        #expect(try publicationRequests(served).isEmpty)
    }

    @Test(arguments: ["html", "missing"])
    func aPublicationThatIsNotAPackageIsRefused(_ variant: String) async throws {
        let served = try ServedPublication.make(on: server, serve: variant == "html" ? ["mode": "html"] : [:]) {
            if variant == "missing" { $0.publicationURL = server.fileURL("nothing-here") }
        }
        await #expect {
            try await TestLCP().open(served.lcplPath, credentials: "open sesame")
        } throws: { error in
            guard case .unavailable(let cause?) = error as? OpeningError else { return false }
            return variant == "html" ? userMessage(of: cause).contains("ZIP") : userMessage(of: cause).contains("404")
        }
    }

    /// A license opened from a URL (read-only: it cannot be updated there).
    @Test func aLicenseAtAURLOpensItsPublication() async throws {
        let served = try ServedPublication.make(on: server)
        try server.serveFile("book.lcpl", ["path": served.lcplPath, "content_type": "application/vnd.readium.lcp.license.v1.0+json"])
        let asset = try AssetRetriever().retrieve(url: server.fileURL("book.lcpl"))
        #expect(asset.format.kind == .lcpl)
        let lcp = try TestLCP()
        let opener = PublicationOpener(contentProtections: [lcp.service.contentProtection()])
        let publication = try await opener.open(asset: asset, allowUserInteraction: false, credentials: "open sesame")
        defer { publication.close() }
        #expect(try publication.read(served.chapters[1].path) == served.chapters[1].plaintext)
        #expect(throws: LCPError.self) { try lcp.service.licenseContainer(for: asset).write(try LicenseDocument(data: served.license.data)) }
    }

    /// A content server that never answers fails the opening once the timeout passes.
    @Test func aSilentContentServerFailsAfterTheTimeout() async throws {
        let served = try ServedPublication.make(on: server, serve: ["mode": "hang"])
        let lcp = try TestLCP()
        let service = LCPService(client: lcp.service.client, licenseRepository: lcp.licenses, passphraseRepository: lcp.passphrases,
                                 streamingTimeout: 1)
        let asset = try AssetRetriever().retrieve(path: served.lcplPath)
        let opener = PublicationOpener(contentProtections: [service.contentProtection()])
        await #expect(throws: OpeningError.self) {
            try await opener.open(asset: asset, allowUserInteraction: false, credentials: "open sesame")
        }
    }
}

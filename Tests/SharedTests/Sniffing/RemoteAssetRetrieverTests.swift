import Foundation
import Shared
import Synchronization
import Testing
import TestSupport

/// A web server in memory: serves fixed bodies with HEAD, GET and `Range`, and records the
/// requests it was sent.
final class FakeHTTPServer: HTTPClient {
    struct Route: Sendable {
        var status = 200
        var contentType: String?
        var body = Data()
        var supportsHEAD = true
        var supportsRange = true
        /// Where the URL redirects to, if anywhere.
        var redirect: String?
    }

    let routes: [String: Route]
    let requests = Mutex<[HTTPRequest]>([])

    init(_ routes: [String: Route]) { self.routes = routes }

    var sentRequests: [HTTPRequest] { requests.withLock { $0 } }

    func send(_ request: HTTPRequest) -> Result<HTTPResponse, HTTPError> {
        requests.withLock { $0.append(request) }
        guard var route = routes[request.url] else {
            return .success(HTTPResponse(url: request.url, statusCode: 404))
        }
        var url = request.url
        if let target = route.redirect, let targetRoute = routes[target] {
            url = target
            route = targetRoute
        }
        var headers: [String: String] = [:]
        if let type = route.contentType { headers["content-type"] = type }
        if request.method == "HEAD" {
            guard route.supportsHEAD else { return .success(HTTPResponse(url: url, statusCode: 405)) }
            headers["content-length"] = String(route.body.count)
            return .success(HTTPResponse(url: url, statusCode: route.status, headers: headers))
        }
        var status = route.status
        var body = route.body
        if route.supportsRange, status == 200, let range = request.headers["Range"], let bounds = Self.bounds(range) {
            let upper = min(bounds.upperBound, body.count - 1)
            if bounds.lowerBound > upper { return .success(HTTPResponse(url: url, statusCode: 416)) }
            body = body.subdata(in: bounds.lowerBound..<(upper + 1))
            status = 206
            headers["content-range"] = "bytes \(bounds.lowerBound)-\(upper)/\(route.body.count)"
        }
        if body.count > request.maxBodySize { return .failure(.tooLarge(request.maxBodySize)) }
        return .success(HTTPResponse(url: url, statusCode: status, headers: headers, body: body))
    }

    func download(_ request: HTTPRequest, to path: String, onProgress: @escaping @Sendable (Int64, Int64?) -> Void,
                  isCancelled: @escaping @Sendable () -> Bool) -> Result<HTTPResponse, HTTPError> {
        .failure(.other("not supported"))
    }

    /// `bytes=a-b` → a...b.
    static func bounds(_ header: String) -> ClosedRange<Int>? {
        let parts = header.dropFirst("bytes=".count).split(separator: "-")
        guard parts.count == 2, let lower = Int(parts[0]), let upper = Int(parts[1]), lower <= upper else { return nil }
        return lower...upper
    }
}

/// `AssetRetriever.retrieve(url:)` against a server in memory.
@Suite struct RemoteAssetRetrieverTests {
    static let base = "https://books.example.com/"

    func retrieve(_ url: String, _ server: FakeHTTPServer) throws(AssetError) -> Asset {
        try AssetRetriever(httpClient: server).retrieve(url: url)
    }

    func retrieveError(_ url: String, _ server: FakeHTTPServer) -> AssetError? {
        do {
            _ = try retrieve(url, server)
            return nil
        } catch {
            return error
        }
    }

    func sample(_ path: String) -> Data { Fixtures.bytes(Fixtures.sample(path)) }

    @Test func audiobookManifestIsReadInPlace() throws {
        let url = Self.base + "flatland/manifest.json"
        let server = FakeHTTPServer([url: .init(contentType: "application/json",
                                                body: sample("audiobook/readium-flatland-librivox.audiobook-manifest.json"))])
        let asset = try retrieve(url, server)
        #expect(asset.format.kind == .audiobookManifest)
        #expect(asset.location == url)
        #expect(asset.name == "manifest.json")
        let fetcher = try #require(asset.fetcher as? HTTPFetcher)
        #expect(fetcher.baseURL == url)
        // The manifest is read through the fetcher at its URL.
        #expect((try? fetcher.get(href: url).read().get())?.count == sample("audiobook/readium-flatland-librivox.audiobook-manifest.json").count)
    }

    @Test func redirectedManifestUsesTheFinalURLAsBase() throws {
        let url = Self.base + "latest"
        let target = Self.base + "v2/manifest.json"
        let server = FakeHTTPServer([
            url: .init(redirect: target),
            target: .init(contentType: "application/webpub+json", body: sample("webpub/swifttoolkit-webpub.json")),
        ])
        let asset = try retrieve(url, server)
        #expect(asset.format.kind == .webpubManifest)
        #expect(asset.location == target)
        #expect((asset.fetcher as? HTTPFetcher)?.baseURL == target)
    }

    @Test func contentBeatsTheContentType() throws {
        let url = Self.base + "feed"
        let server = FakeHTTPServer([url: .init(contentType: "application/audiobook+json",
                                                body: sample("format-sniffing/opds2-feed.json"))])
        guard case .unsupportedFormat(url, detected: let detected?) = retrieveError(url, server) else {
            Issue.record("expected unsupportedFormat")
            return
        }
        #expect(detected.kind == .opds2Feed)
    }

    @Test func pdfIsSniffedFromASmallRange() throws {
        let url = Self.base + "daisy.pdf"
        let pdf = sample("lcp/swifttoolkit-daisy.pdf")
        let server = FakeHTTPServer([url: .init(contentType: "application/octet-stream", body: pdf)])
        let asset = try retrieve(url, server)
        #expect(asset.format.kind == .pdf)
        #expect(asset.name == "daisy.pdf")
        let gets = server.sentRequests.filter { $0.method == "GET" }
        #expect(gets.count == 1)
        #expect(gets.first?.headers["Range"] == "bytes=0-\(SniffingLimits.default.headLength - 1)")
    }

    @Test func licenseDocument() throws {
        let url = Self.base + "loan/license"
        let server = FakeHTTPServer([url: .init(contentType: "application/vnd.readium.lcp.license.v1.0+json",
                                                body: sample("lcp/r2streamerjs-wasteland-otf-obf_LCP_dan.lcpl"))])
        #expect(try retrieve(url, server).format.kind == .lcpl)
    }

    @Test func remotePackageMustBeDownloadedFirst() throws {
        let url = Self.base + "book.epub"
        let server = FakeHTTPServer([url: .init(contentType: "application/epub+zip", body: sample("epub/idpf-hefty-water.epub"))])
        guard case .unsupportedFormat(url, detected: let detected?) = retrieveError(url, server) else {
            Issue.record("expected unsupportedFormat")
            return
        }
        #expect(detected.kind == .epub)
        #expect(retrieveError(url, server)?.userMessage
            == "\(url) is an EPUB publication, which Lectern opens only from a local file: download it first")
    }

    @Test func serverIgnoringRangesOnALargeFileFallsBackOnTheHints() throws {
        let url = Self.base + "big.pdf"
        var body = Data("%PDF-1.7\n".utf8)
        body.append(Data(repeating: 0x20, count: SniffingLimits.default.headLength * 4))
        let server = FakeHTTPServer([url: .init(contentType: "application/pdf", body: body, supportsRange: false)])
        #expect(try retrieve(url, server).format.kind == .pdf)
    }

    @Test func serverRefusingHEADIsAskedWithGET() throws {
        let url = Self.base + "manifest.json"
        let server = FakeHTTPServer([url: .init(body: sample("webpub/swifttoolkit-divina.json"), supportsHEAD: false)])
        #expect(try retrieve(url, server).format.kind == .divinaManifest)
    }

    @Test func largeManifestIsFetchedWholeForSniffing() throws {
        let url = Self.base + "cantook.json"
        let manifest = sample("audiobook-drm/feedbooks_2.json")
        #expect(manifest.count > SniffingLimits.default.headLength)
        let server = FakeHTTPServer([url: .init(contentType: "application/json", body: manifest)])
        #expect(try retrieve(url, server).format.kind == .audiobookManifest)
    }

    @Test func missingURLIsNotFound() {
        let url = Self.base + "nothing.json"
        guard case .notFound(url) = retrieveError(url, FakeHTTPServer([:])) else {
            Issue.record("expected notFound")
            return
        }
    }

    @Test func forbiddenURLIsUnreadable() {
        let url = Self.base + "private.json"
        guard case .unreadable(url, let reason) = retrieveError(url, FakeHTTPServer([url: .init(status: 403)])) else {
            Issue.record("expected unreadable")
            return
        }
        #expect(reason == "access denied (HTTP 403)")
    }

    @Test func networkFailureIsUnreadable() {
        final class Offline: HTTPClient {
            func send(_ request: HTTPRequest) -> Result<HTTPResponse, HTTPError> { .failure(.unreachable("no route to host")) }
            func download(_ request: HTTPRequest, to path: String, onProgress: @escaping @Sendable (Int64, Int64?) -> Void,
                          isCancelled: @escaping @Sendable () -> Bool) -> Result<HTTPResponse, HTTPError> { .failure(.cancelled) }
        }
        let url = Self.base + "book.json"
        do {
            _ = try AssetRetriever(httpClient: Offline()).retrieve(url: url)
            Issue.record("expected an error")
        } catch {
            guard case .unreadable(url, let reason) = error else {
                Issue.record("expected unreadable, got \(error)")
                return
            }
            #expect(reason.contains("no route to host"))
        }
    }

    @Test func unknownRemoteContent() {
        let url = Self.base + "notes.txt"
        let server = FakeHTTPServer([url: .init(contentType: "text/plain", body: Data("hello".utf8))])
        guard case .unsupportedFormat(url, detected: nil) = retrieveError(url, server) else {
            Issue.record("expected unsupportedFormat")
            return
        }
    }
}

extension RemoteAssetRetrieverTests {
    @Test func serverIgnoringRangesOnAManifestStillGetsItSniffed() throws {
        let url = Self.base + "cantook"
        let server = FakeHTTPServer([url: .init(contentType: "application/json", body: sample("audiobook-drm/feedbooks_1.json"),
                                                supportsRange: false)])
        #expect(try retrieve(url, server).format.kind == .audiobookManifest)
        #expect(server.sentRequests.last?.maxBodySize == SniffingLimits.default.maxDocumentLength)
    }

    @Test func serverIgnoringRangesOnAPDFIsNotDownloaded() throws {
        let url = Self.base + "big.pdf"
        var body = Data("%PDF-1.7\n".utf8)
        body.append(Data(repeating: 0x20, count: SniffingLimits.default.headLength * 4))
        let server = FakeHTTPServer([url: .init(contentType: "application/pdf", body: body, supportsRange: false)])
        _ = try retrieve(url, server)
        #expect(server.sentRequests.filter { $0.method == "GET" }.count == 1)
    }
}

extension RemoteAssetRetrieverTests {
    @Test func seenContentBeatsAPackageContentType() throws {
        let url = Self.base + "book"
        var body = Data([0x00, 0x01, 0x02, 0x03])
        body.append(Data(repeating: 0x42, count: SniffingLimits.default.headLength * 2))
        let server = FakeHTTPServer([url: .init(contentType: "application/epub+zip", body: body)])
        guard case .unsupportedFormat(url, detected: nil) = retrieveError(url, server) else {
            Issue.record("expected unsupportedFormat without a format")
            return
        }
    }

    @Test func manifestLongerThanTheLimitIsNamedByItsContentType() throws {
        let url = Self.base + "huge.json"
        let manifest = SniffingSamples.manifest(readingOrder: SniffingSamples.audioReadingOrder)
            + String(repeating: " ", count: SniffingLimits.default.maxDocumentLength)
        let server = FakeHTTPServer([url: .init(contentType: "application/audiobook+json", body: Data(manifest.utf8))])
        #expect(try retrieve(url, server).format.kind == .audiobookManifest)
        // Never more than the limit was asked for.
        #expect(server.sentRequests.filter { $0.method == "GET" }.allSatisfy { $0.maxBodySize <= SniffingLimits.default.maxDocumentLength })
    }
}

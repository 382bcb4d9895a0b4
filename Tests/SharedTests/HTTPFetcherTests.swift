import Foundation
import Shared
import Testing
import TestSupport

private let body = Data("0123456789abcdefghij".utf8)

/// Routes used by most HTTP tests.
private func standardRoutes() -> [TestHTTPRoute] {
    [
        TestHTTPRoute("/book.txt", headers: ["Content-Type": "text/plain; charset=utf-8"], body: body),
        TestHTTPRoute("/no-type.bin", body: body),
        TestHTTPRoute("/no-ranges.txt", headers: ["Content-Type": "text/css"], body: body, honoursRanges: false),
        TestHTTPRoute("/no-length.txt", body: body, sendsContentLength: false),
        TestHTTPRoute("/missing", status: 404, text: "nope"),
        TestHTTPRoute("/gone", status: 410, text: "gone"),
        TestHTTPRoute("/forbidden", status: 403, text: "no"),
        TestHTTPRoute("/unauthorized", status: 401, text: "who?"),
        TestHTTPRoute("/error", status: 500, text: "boom"),
        TestHTTPRoute("/busy", status: 503, text: "later"),
        TestHTTPRoute("/hang", behaviour: .hang),
        TestHTTPRoute("/close", behaviour: .close),
        TestHTTPRoute("/redirect", status: 302, headers: ["Location": "/book.txt"]),
        TestHTTPRoute("/echo", behaviour: .echo),
        TestHTTPRoute("/get-only", body: body, methods: ["GET"]),
    ]
}

@Suite struct HTTPFetcherTests {
    @Test func readsWholeAndLengthFromHEAD() throws {
        let server = try TestHTTPServer(routes: standardRoutes())
        defer { server.stop() }
        let fetcher = HTTPFetcher(timeout: 5)
        #expect(fetcher.links.isEmpty)
        let resource = fetcher.get(Link(href: server.url("/book.txt")))
        #expect(resource.length.value == 20)
        #expect(server.requests.map(\.method) == ["HEAD"])
        #expect(resource.read().value == body)
        // The Content-Type lands in the link.
        #expect(resource.link.mediaType == MediaType("text/plain;charset=utf-8"))
        #expect(resource.readAsString().value == String(decoding: body, as: UTF8.self))
    }

    @Test func linkTypeFromTheResponseOnlyWhenMissing() throws {
        let server = try TestHTTPServer(routes: standardRoutes())
        defer { server.stop() }
        let fetcher = HTTPFetcher(timeout: 5)
        let typed = fetcher.get(Link(href: server.url("/book.txt"), mediaType: .html))
        _ = typed.read()
        #expect(typed.link.mediaType == .html)
        let untyped = fetcher.get(Link(href: server.url("/no-type.bin")))
        _ = untyped.read()
        #expect(untyped.link.mediaType == nil)
        let css = fetcher.get(Link(href: server.url("/no-ranges.txt")))
        #expect(css.link.mediaType == nil) // nothing known before a request
        _ = css.length
        #expect(css.link.mediaType == .css)
    }

    @Test func rangesUseRangeRequests() throws {
        let server = try TestHTTPServer(routes: standardRoutes())
        defer { server.stop() }
        let resource = HTTPFetcher(timeout: 5).get(Link(href: server.url("/book.txt")))
        #expect(resource.read(range: 2..<5).text == "234")
        #expect(resource.read(range: 15..<100).text == "fghij")
        #expect(resource.read(range: 3..<3).text == "")
        #expect(resource.read(range: 100..<200).text == "")
        let first = try #require(server.requests.first)
        #expect(first.headers["range"] == "bytes=2-4")
        // The total length comes from Content-Range, without a HEAD request.
        #expect(resource.length.value == 20)
        #expect(!server.requests.contains { $0.method == "HEAD" })
    }

    @Test func serverIgnoringRangesStillGivesTheSlice() throws {
        let server = try TestHTTPServer(routes: standardRoutes())
        defer { server.stop() }
        let resource = HTTPFetcher(timeout: 5).get(Link(href: server.url("/no-ranges.txt")))
        let slice = try resource.read(range: 4..<9).get()
        #expect(slice == Data("45678".utf8))
        #expect(slice.startIndex == 0)
        #expect(resource.read(range: 18..<30).text == "ij")
        #expect(resource.link.mediaType == .css)
        #expect(resource.length.value == 20)
    }

    @Test func lengthWithoutContentLength() throws {
        let server = try TestHTTPServer(routes: standardRoutes())
        defer { server.stop() }
        let resource = HTTPFetcher(timeout: 5).get(Link(href: server.url("/no-length.txt")))
        #expect(resource.length.value == 20)
        #expect(resource.read().value == body)
    }

    @Test func headNotAllowedFallsBackToGET() throws {
        let server = try TestHTTPServer(routes: standardRoutes())
        defer { server.stop() }
        let resource = HTTPFetcher(timeout: 5).get(Link(href: server.url("/get-only")))
        #expect(resource.length.value == 20)
        #expect(resource.read(range: 0..<2).text == "01")
    }

    @Test(arguments: [
        ("/missing", 404), ("/gone", 404), ("/forbidden", 403), ("/unauthorized", 403), ("/error", 500), ("/busy", 503),
    ])
    func statusCodesMapToResourceErrors(path: String, status: Int) throws {
        let server = try TestHTTPServer(routes: standardRoutes())
        defer { server.stop() }
        let resource = HTTPFetcher(timeout: 5).get(Link(href: server.url(path)))
        let readError = try #require(resource.read().error)
        #expect(readError.httpStatus == status)
        #expect(resource.read(range: 0..<5).error?.httpStatus == status)
        #expect(resource.length.failure?.httpStatus == status)
    }

    @Test func serverThatNeverAnswersIsUnavailableAfterTheTimeout() throws {
        let server = try TestHTTPServer(routes: standardRoutes())
        defer { server.stop() }
        let fetcher = HTTPFetcher(timeout: 1)
        let resource = fetcher.get(Link(href: server.url("/hang")))
        #expect(resource.read().error?.isUnavailable == true)
        #expect(resource.length.failure?.isUnavailable == true)
    }

    @Test func connectionClosedWithoutAnswer() throws {
        let server = try TestHTTPServer(routes: standardRoutes())
        defer { server.stop() }
        let error = try #require(HTTPFetcher(timeout: 5).get(Link(href: server.url("/close"))).read().error)
        #expect(error.isUnavailable || error.isOther)
    }

    @Test func connectionRefusedIsUnavailable() throws {
        let resource = HTTPFetcher(timeout: 5).get(Link(href: TestHTTPServer.refusingURL("/book.txt")))
        #expect(resource.read().error?.isUnavailable == true)
        #expect(resource.length.failure?.isUnavailable == true)
    }

    @Test func redirectsAreFollowed() throws {
        let server = try TestHTTPServer(routes: standardRoutes())
        defer { server.stop() }
        let resource = HTTPFetcher(timeout: 5).get(Link(href: server.url("/redirect")))
        #expect(resource.read().value == body)
        #expect(resource.link.mediaType == MediaType("text/plain;charset=utf-8"))
    }

    @Test func relativeHrefsUseTheBaseURLAndOthersAreNotFound() throws {
        let server = try TestHTTPServer(routes: standardRoutes())
        defer { server.stop() }
        let fetcher = HTTPFetcher(baseURL: server.url("/books/../manifest.json"), timeout: 5)
        #expect(fetcher.get(Link(href: "book.txt")).read().value == body)
        #expect(HTTPFetcher(timeout: 5).get(Link(href: "book.txt")).read().error?.isNotFound == true)
        #expect(fetcher.get(Link(href: "file:///etc/passwd")).read().error?.isNotFound == true)
        #expect(fetcher.get(Link(href: "ftp://127.0.0.1/x")).read().error?.isNotFound == true)
    }

    @Test func templatesAndQueryParameters() throws {
        let server = try TestHTTPServer(routes: standardRoutes())
        defer { server.stop() }
        let fetcher = HTTPFetcher(timeout: 5)
        let templated = Link(href: server.url("/echo{?q,page}"), templated: true)
        _ = fetcher.get(templated, parameters: ["q": "white whale", "page": "2"]).read()
        _ = fetcher.get(Link(href: server.url("/echo?a=1")), parameters: ["b": "x y", "a": "é"]).read()
        let queries = server.requests.map(\.query)
        #expect(queries == ["q=white%20whale&page=2", "a=1&a=%C3%A9&b=x%20y"])
    }
}

import Foundation
@testable import LibCurl
import Testing
import TestSupport

private let large = noise(count: 3_000_000, seed: 99)

private func routes() -> [TestHTTPRoute] {
    [
        TestHTTPRoute("/echo", behaviour: .echo),
        TestHTTPRoute("/text", headers: ["Content-Type": "text/plain; charset=utf-8", "X-Custom": "Yes"], text: "héllo"),
        TestHTTPRoute("/large", headers: ["Content-Type": "application/octet-stream"], body: large),
        TestHTTPRoute("/missing", status: 404, headers: ["Content-Type": "text/plain"], text: "no such thing"),
        TestHTTPRoute("/hang", behaviour: .hang),
        TestHTTPRoute("/slow", text: "late", delay: 3),
        TestHTTPRoute("/redirect", status: 302, headers: ["Location": "/text", "X-Redirect-Only": "1"]),
        TestHTTPRoute("/redirect-twice", status: 301, headers: ["Location": "/redirect"]),
        TestHTTPRoute("/loop", status: 302, headers: ["Location": "/loop"]),
        TestHTTPRoute("/to-file", status: 302, headers: ["Location": "file:///etc/passwd"]),
    ]
}

private func curlError(_ body: () throws -> Any) -> CurlError? {
    do {
        _ = try body()
        return nil
    } catch let error as CurlError {
        return error
    } catch {
        Issue.record("unexpected error \(error)")
        return nil
    }
}

/// The request the echo route saw.
private func echoed(_ response: CurlResponse) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
}

@Suite struct CurlTests {
    @Test func getWithHeaders() throws {
        let server = try TestHTTPServer(routes: routes())
        defer { server.stop() }
        let response = try Curl.perform(CurlRequest(url: server.url("/text"), timeout: 5))
        #expect(response.statusCode == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "héllo")
        #expect(response.header("content-type") == "text/plain; charset=utf-8")
        #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(response.header("x-custom") == "Yes")
        #expect(response.header("content-length") == "6")
        #expect(response.headers.allSatisfy { $0.name == $0.name.lowercased() })
        #expect(response.effectiveURL == server.url("/text"))
    }

    @Test func requestHeadersAndMethods() throws {
        let server = try TestHTTPServer(routes: routes())
        defer { server.stop() }
        let get = try echoed(try Curl.perform(CurlRequest(url: server.url("/echo?a=1"), headers: [("X-Token", "abc"), ("Accept", "application/json")], timeout: 5)))
        #expect(get["method"] as? String == "GET")
        #expect(get["query"] as? String == "a=1")
        let headers = get["headers"] as? [String: String] ?? [:]
        #expect(headers["x-token"] == "abc")
        #expect(headers["accept"] == "application/json")
        #expect(headers["user-agent"]?.hasPrefix("Lectern") == true)

        let body = Array(#"{"device":"lectern"}"#.utf8)
        let post = try echoed(try Curl.perform(CurlRequest(url: server.url("/echo"), method: "POST",
                                                           headers: [("Content-Type", "application/json")], body: body, timeout: 5)))
        #expect(post["method"] as? String == "POST")
        #expect(Data(base64Encoded: post["body_base64"] as? String ?? "") == Data(body))
        #expect((post["headers"] as? [String: String])?["content-type"] == "application/json")

        let put = try echoed(try Curl.perform(CurlRequest(url: server.url("/echo"), method: "PUT", body: Array("x=1".utf8), timeout: 5)))
        #expect(put["method"] as? String == "PUT")
        #expect(Data(base64Encoded: put["body_base64"] as? String ?? "") == Data("x=1".utf8))

        let emptyPut = try echoed(try Curl.perform(CurlRequest(url: server.url("/echo"), method: "PUT", timeout: 5)))
        #expect(emptyPut["method"] as? String == "PUT")
        #expect((emptyPut["headers"] as? [String: String])?["content-length"] == "0")

        let emptyPost = try echoed(try Curl.perform(CurlRequest(url: server.url("/echo"), method: "POST", timeout: 5)))
        #expect(emptyPost["method"] as? String == "POST")

        let delete = try echoed(try Curl.perform(CurlRequest(url: server.url("/echo"), method: "DELETE", timeout: 5)))
        #expect(delete["method"] as? String == "DELETE")
        #expect(server.requests.map(\.method) == ["GET", "POST", "PUT", "PUT", "POST", "DELETE"])
    }

    @Test func head() throws {
        let server = try TestHTTPServer(routes: routes())
        defer { server.stop() }
        let response = try Curl.perform(CurlRequest(url: server.url("/large"), method: "HEAD", timeout: 5))
        #expect(response.statusCode == 200)
        #expect(response.body.isEmpty)
        #expect(response.header("content-length") == String(large.count))
        #expect(server.requests.map(\.method) == ["HEAD"])
    }

    @Test func errorStatusesAreResponses() throws {
        let server = try TestHTTPServer(routes: routes())
        defer { server.stop() }
        let response = try Curl.perform(CurlRequest(url: server.url("/missing"), timeout: 5))
        #expect(response.statusCode == 404)
        #expect(String(decoding: response.body, as: UTF8.self) == "no such thing")
        #expect(try Curl.perform(CurlRequest(url: server.url("/nothing-here"), timeout: 5)).statusCode == 404)
    }

    @Test func largeBodies() throws {
        let server = try TestHTTPServer(routes: routes())
        defer { server.stop() }
        let response = try Curl.perform(CurlRequest(url: server.url("/large"), timeout: 20))
        #expect(Data(response.body) == large)
        // Over the limit: refused, not accumulated.
        #expect(curlError { try Curl.perform(CurlRequest(url: server.url("/large"), timeout: 20, maxBodySize: 1_000_000)) }
            == .tooLarge(1_000_000))
    }

    @Test func streamingAndProgress() throws {
        let server = try TestHTTPServer(routes: routes())
        defer { server.stop() }
        var received = Data()
        var progress: [(Int64, Int64?)] = []
        let response = try Curl.perform(CurlRequest(url: server.url("/large"), timeout: 20, maxBodySize: 10), onData: { bytes in
            received.append(contentsOf: bytes)
            return true
        }, onProgress: { now, total in
            progress.append((now, total))
            return true
        })
        #expect(response.body.isEmpty) // streamed, not kept (and so not limited by maxBodySize)
        #expect(received == large)
        #expect(progress.contains { $0.1 == Int64(large.count) })
        #expect(progress.last.map { $0.0 } == Int64(large.count))
    }

    @Test func cancellation() throws {
        let server = try TestHTTPServer(routes: routes())
        defer { server.stop() }
        var chunks = 0
        #expect(curlError { try Curl.perform(CurlRequest(url: server.url("/large"), timeout: 20), onData: { _ in
            chunks += 1
            return chunks < 2
        }) } == .cancelled)
        #expect(curlError { try Curl.perform(CurlRequest(url: server.url("/large"), timeout: 20), onProgress: { now, _ in now < 100_000 }) }
            == .cancelled)
    }

    @Test func timeouts() throws {
        let server = try TestHTTPServer(routes: routes())
        defer { server.stop() }
        #expect(curlError { try Curl.perform(CurlRequest(url: server.url("/hang"), timeout: 1)) } == .timedOut)
        #expect(curlError { try Curl.perform(CurlRequest(url: server.url("/slow"), timeout: 1)) } == .timedOut)
    }

    @Test func connectionRefused() {
        let error = curlError { try Curl.perform(CurlRequest(url: TestHTTPServer.refusingURL(), timeout: 5)) }
        #expect({ if case .cannotConnect = error { true } else { false } }(), "\(String(describing: error))")
        let unresolvable = curlError { try Curl.perform(CurlRequest(url: "http://no-such-host.invalid/", timeout: 5)) }
        #expect(unresolvable != nil)
    }

    @Test func redirects() throws {
        let server = try TestHTTPServer(routes: routes())
        defer { server.stop() }
        let response = try Curl.perform(CurlRequest(url: server.url("/redirect-twice"), timeout: 5))
        #expect(response.statusCode == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "héllo")
        #expect(response.effectiveURL == server.url("/text"))
        // Only the final response's headers are kept.
        #expect(response.header("x-redirect-only") == nil)
        #expect(response.header("location") == nil)
        #expect(response.header("x-custom") == "Yes")

        let notFollowed = try Curl.perform(CurlRequest(url: server.url("/redirect"), timeout: 5, followRedirects: false))
        #expect(notFollowed.statusCode == 302)
        #expect(notFollowed.header("location") == "/text")

        #expect(curlError { try Curl.perform(CurlRequest(url: server.url("/loop"), timeout: 5)) } != nil)
    }

    @Test func otherSchemesAreRefused() throws {
        let server = try TestHTTPServer(routes: routes())
        defer { server.stop() }
        for url in ["file:///etc/passwd", "ftp://127.0.0.1/", "gopher://127.0.0.1/", "dict://127.0.0.1/", "ldap://127.0.0.1/"] {
            let error = curlError { try Curl.perform(CurlRequest(url: url, timeout: 5)) }
            #expect({ if case .failed = error { true } else { false } }(), "\(url): \(String(describing: error))")
        }
        // Nor may a server redirect there.
        let error = curlError { try Curl.perform(CurlRequest(url: server.url("/to-file"), timeout: 5)) }
        #expect(error != nil)
    }

    @Test func testServerRoutesCanChangeAndRequestsAreRecorded() throws {
        // The loopback server itself, as later tests (status documents, key sets) will use it.
        let server = try TestHTTPServer(routes: [TestHTTPRoute("/status", headers: ["Content-Type": "application/json"],
                                                               text: #"{"status":"ready"}"#)])
        defer { server.stop() }
        #expect(String(decoding: try Curl.perform(CurlRequest(url: server.url("/status"), timeout: 5)).body, as: UTF8.self)
            == #"{"status":"ready"}"#)
        try server.setRoutes([
            TestHTTPRoute("/status", text: #"{"status":"active"}"#),
            TestHTTPRoute("/renew", status: 200, text: "renewed", methods: ["PUT"]),
            TestHTTPRoute("/files/", text: "any file", matchesPrefix: true),
        ])
        #expect(String(decoding: try Curl.perform(CurlRequest(url: server.url("/status"), timeout: 5)).body, as: UTF8.self)
            == #"{"status":"active"}"#)
        #expect(try Curl.perform(CurlRequest(url: server.url("/renew"), timeout: 5)).statusCode == 405)
        #expect(try Curl.perform(CurlRequest(url: server.url("/renew?end=2030"), method: "PUT", body: Array("e".utf8), timeout: 5))
            .statusCode == 200)
        #expect(String(decoding: try Curl.perform(CurlRequest(url: server.url("/files/a/b.txt"), timeout: 5)).body, as: UTF8.self)
            == "any file")
        let requests = server.requests
        #expect(requests.map(\.path) == ["/status", "/status", "/renew", "/renew", "/files/a/b.txt"])
        #expect(requests[3].method == "PUT" && requests[3].query == "end=2030" && requests[3].body == Data("e".utf8))
        server.stop()
        server.stop()
        #expect(curlError { try Curl.perform(CurlRequest(url: server.url("/status"), timeout: 5)) } != nil)
    }

    @Test func errorsHaveMessages() {
        #expect(CurlError.timedOut.description == "the server did not answer in time")
        #expect(CurlError.cannotConnect("refused").description.contains("refused"))
    }
}

/// Timeouts given from outside become libcurl milliseconds without trapping.
@Suite struct CurlTimeoutConversionTests {
    @Test func secondsBecomeBoundedMilliseconds() {
        #expect(Curl.milliseconds(1.5) == 1500)
        #expect(Curl.milliseconds(0.0004) == 1)
        #expect(Curl.milliseconds(0) == 0)
        #expect(Curl.milliseconds(-3) == 0)
        #expect(Curl.milliseconds(.nan) == 0)
        #expect(Curl.milliseconds(.infinity) == 0)
        #expect(Curl.milliseconds(1e300) == 1_000_000_000)
    }
}

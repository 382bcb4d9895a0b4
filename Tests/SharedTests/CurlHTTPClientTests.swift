import Foundation
import Shared
import Synchronization
import Testing
import TestSupport

@Suite final class CurlHTTPClientTests {
    let directory = Fixtures.temporaryDirectory("http-client")
    let payload = noise(count: 2_000_000, seed: 5)

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    func server() throws -> TestHTTPServer {
        try TestHTTPServer(routes: [
            TestHTTPRoute("/book.epub", headers: ["Content-Type": "application/epub+zip"], body: payload),
            TestHTTPRoute("/echo", behaviour: .echo),
            TestHTTPRoute("/missing", status: 404, text: "no"),
            TestHTTPRoute("/hang", behaviour: .hang),
        ])
    }

    @Test func sendConvertsResponses() throws {
        let server = try server()
        defer { server.stop() }
        let client = CurlHTTPClient()
        let response = try client.send(HTTPRequest(url: server.url("/book.epub"), timeout: 10)).get()
        #expect(response.statusCode == 200 && response.isSuccess)
        #expect(response.body == payload)
        #expect(response.mediaType == .epub)
        #expect(response.contentLength == UInt64(payload.count))
        #expect(response.headers["content-type"] == "application/epub+zip")
        let missing = try client.send(HTTPRequest(url: server.url("/missing"), timeout: 10)).get()
        #expect(missing.statusCode == 404 && !missing.isSuccess)
    }

    @Test func asyncSend() async throws {
        let server = try server()
        defer { server.stop() }
        let posted = try await CurlHTTPClient().send(HTTPRequest(url: server.url("/echo"), method: "POST", body: Data("a=1".utf8),
                                                                 timeout: 10)).get()
        #expect(String(decoding: posted.body, as: UTF8.self).contains(#""method": "POST""#))
    }

    @Test func failuresBecomeHTTPErrors() throws {
        let server = try server()
        defer { server.stop() }
        let client = CurlHTTPClient(unresponsiveHosts: UnresponsiveHosts())
        let timedOut = client.send(HTTPRequest(url: server.url("/hang"), timeout: 1))
        #expect({ if case .failure(.timedOut) = timedOut { true } else { false } }())
        let refused = client.send(HTTPRequest(url: TestHTTPServer.refusingURL(), timeout: 5))
        #expect({ if case .failure(.unreachable) = refused { true } else { false } }())
        let tooLarge = CurlHTTPClient(unresponsiveHosts: UnresponsiveHosts())
            .send(HTTPRequest(url: server.url("/book.epub"), timeout: 10, maxBodySize: 1000))
        #expect({ if case .failure(.tooLarge(1000)) = tooLarge { true } else { false } }())
    }

    /// A server that accepts and then sends nothing is abandoned after the stall timeout,
    /// whatever the total timeout; the requests that follow to the same host fail at once
    /// (the server sees none of them), other hosts are unaffected, and after the memory has
    /// passed the host is tried again.
    @Test func aSilentHostFailsTheNextRequestsAtOnce() throws {
        let silent = try server(), alive = try server()
        defer { silent.stop(); alive.stop() }
        let clock = Mutex(1000.0)
        let hosts = UnresponsiveHosts(memory: 60, now: { clock.withLock { $0 } })
        let client = CurlHTTPClient(unresponsiveHosts: hosts)
        let first = client.send(HTTPRequest(url: silent.url("/hang"), timeout: 0, stallTimeout: 1))
        #expect({ if case .failure(.timedOut) = first { true } else { false } }(), "\(first)")
        let before = silent.requests.count
        for path in ["/book.epub", "/echo", "/hang"] {
            guard case .failure(.unreachable(let reason)) = client.send(HTTPRequest(url: silent.url(path), timeout: 0)) else {
                Issue.record("\(path) was tried")
                continue
            }
            #expect(reason.contains("did not answer a moment ago"), "\(reason)")
        }
        #expect(silent.requests.count == before, "no request reached the silent server")
        #expect((try? client.send(HTTPRequest(url: alive.url("/book.epub"), timeout: 10)).get().statusCode) == 200)
        clock.withLock { $0 += 61 }
        #expect((try? client.send(HTTPRequest(url: silent.url("/book.epub"), timeout: 10)).get().statusCode) == 200)
    }

    @Test func hostKeys() {
        #expect(UnresponsiveHosts.host(of: "http://Example.org/a") == "http://example.org:80")
        #expect(UnresponsiveHosts.host(of: "https://user:pw@example.org:8443/a?b#c") == "https://example.org:8443")
        #expect(UnresponsiveHosts.host(of: "http://[::1]/x") == "http://[::1]:80")
        #expect(UnresponsiveHosts.host(of: "http://[::1]:81/x") == "http://[::1]:81")
        #expect(UnresponsiveHosts.host(of: "book.epub") == nil)
    }

    @Test func downloadWritesAPrivateFileWithProgress() throws {
        let server = try server()
        defer { server.stop() }
        let path = directory + "/download.epub"
        let progress = Mutex<[Int64]>([])
        let result = CurlHTTPClient().download(HTTPRequest(url: server.url("/book.epub"), timeout: 10), to: path,
                                               onProgress: { received, _ in progress.withLock { $0.append(received) } },
                                               isCancelled: { false })
        let response = try result.get()
        #expect(response.statusCode == 200)
        #expect(response.body.isEmpty)
        #expect(FileManager.default.contents(atPath: path) == payload)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o777 } == 0o600)
        #expect(progress.withLock { $0.last } == Int64(payload.count))
    }

    @Test func downloadCanBeCancelled() throws {
        let server = try server()
        defer { server.stop() }
        let calls = Counter()
        let result = CurlHTTPClient().download(HTTPRequest(url: server.url("/book.epub"), timeout: 10),
                                               to: directory + "/cancelled.epub", onProgress: { _, _ in },
                                               isCancelled: { calls.increment(); return calls.count > 2 })
        #expect({ if case .failure(.cancelled) = result { true } else { false } }())
        let unwritable = CurlHTTPClient().download(HTTPRequest(url: server.url("/book.epub"), timeout: 10),
                                                   to: directory + "/no/such/folder/x", onProgress: { _, _ in }, isCancelled: { false })
        #expect({ if case .failure(.other) = unwritable { true } else { false } }())
    }
}

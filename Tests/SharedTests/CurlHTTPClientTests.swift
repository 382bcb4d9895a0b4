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
        let client = CurlHTTPClient()
        let timedOut = client.send(HTTPRequest(url: server.url("/hang"), timeout: 1))
        #expect({ if case .failure(.timedOut) = timedOut { true } else { false } }())
        let refused = client.send(HTTPRequest(url: TestHTTPServer.refusingURL(), timeout: 5))
        #expect({ if case .failure(.unreachable) = refused { true } else { false } }())
        let tooLarge = client.send(HTTPRequest(url: server.url("/book.epub"), timeout: 10, maxBodySize: 1000))
        #expect({ if case .failure(.tooLarge(1000)) = tooLarge { true } else { false } }())
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

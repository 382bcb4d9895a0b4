import Foundation
import Shared
import Testing
import TestSupport

/// A server that ignores `Range` sends its whole body to every ranged request: the body is
/// downloaded once, to an unnamed file, and every range is read from it (issue #27 item 5).
@Suite struct RangeIgnoringServerTests {
    @Test func aResourceReadByChunksIsDownloadedOnce() throws {
        let directory = Fixtures.temporaryDirectory("range-ignoring")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let payload = noise(count: 4 << 20, seed: 27)
        let path = directory + "/big.bin"
        try payload.write(to: URL(fileURLWithPath: path))
        let server = try TestHTTPServer(routes: [
            TestHTTPRoute("/big.bin", headers: ["Content-Type": "application/octet-stream"], bodyFile: path, honoursRanges: false),
        ])
        defer { server.stop() }
        let spool = directory + "/spool"
        let fetcher = HTTPFetcher(client: CurlHTTPClient(unresponsiveHosts: UnresponsiveHosts()), timeout: 10,
                                  bodies: RemoteBodyCache(maxSize: 64 << 20, directory: spool))
        let chunk = 256 * 1024
        let resource = fetcher.get(Link(href: server.url("/big.bin")))
        #expect(resource.length.value == UInt64(payload.count))
        var read = Data()
        for offset in stride(from: 0, to: payload.count, by: chunk) {
            read.append(try resource.read(range: UInt64(offset)..<UInt64(min(offset + chunk, payload.count))).get())
        }
        resource.close()
        // Compared outside #expect, whose diff of two large failing collections takes minutes.
        let same = read == payload
        #expect(same)
        // Another resource of the same URL (the next request of a browser) reads the same copy.
        let again = fetcher.get(Link(href: server.url("/big.bin")))
        #expect(again.read(range: 100..<200).value == payload[100..<200])
        again.close()

        let gets = server.requests.filter { $0.method == "GET" }
        // One ranged GET, cut off once it proved to send more than the range, then the body.
        #expect(gets.count <= 2, "\(gets.count) GETs of the whole body")
        // The file has no name: nothing is left in the directory.
        #expect((try? FileManager.default.contentsOfDirectory(atPath: spool)) ?? [] == [])
    }
}

import Foundation
import Testing
import TestSupport

/// Many clients at once against a decrypted LCP resource: every answer is right.
@Suite struct ConcurrentRequestTests {
    @Test func twoHundredRangeRequestsFromFiftyClients() throws {
        let lectern = LecternProcess()
        let clear = Fixtures.bytes(ServeCommandTests.daisyClear)
        let server = try ServeProcess([ServeCommandTests.daisy, "--passphrase", "test"], publications: 1, home: lectern)
        defer { server.stop() }
        let url = server.path() + "publication.pdf"
        let client = server.client
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 50) { clientIndex in
            // A fixed spread of ranges per client: starts, middles, ends, various sizes.
            var state = UInt64(clientIndex + 1) &* 0x9E37_79B9_7F4A_7C15
            for request in 0..<4 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let start = Int(state >> 33) % clear.count
                let size = [1, 100, 4096, 70_000][request]
                let end = min(start + size, clear.count)
                do {
                    let response = try client.request(url, headers: ["Range": "bytes=\(start)-\(end - 1)"])
                    if response.status != 206 || response.body != clear[start..<end] {
                        failures.add("client \(clientIndex) bytes \(start)-\(end - 1): \(response.status), \(response.body.count) bytes")
                    }
                } catch {
                    failures.add("client \(clientIndex): \(error)")
                }
            }
        }
        #expect(failures.list.isEmpty, "\(failures.list.prefix(5))")
        #expect(server.stop() == 0)
    }

    final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ item: String) { lock.lock(); items.append(item); lock.unlock() }
        var list: [String] { lock.lock(); defer { lock.unlock() }; return items }
    }
}

import Foundation
import Testing
import TestSupport

/// A request with two `Host` fields is answered 400 (RFC 9112 §3.2; issue #27 item 15): a
/// proxy and this server could each read a different one.
@Suite struct DuplicateHostTests {
    @Test func aRequestWithTwoHostHeadersIsRefused() throws {
        let server = try ServeProcess([ServeCommandTests.wasteland], publications: 1, home: LecternProcess())
        defer { server.stop() }
        let manifest = server.path() + "manifest.json"
        let ours = "127.0.0.1:\(server.port)"
        #expect(try server.client.request(manifest, host: ours).status == 200)
        for (first, second) in [(ours, "evil.example"), (ours, ours), ("evil.example", ours)] {
            #expect(try server.client.request(manifest, host: first, headers: ["Host": second]).status == 400, "\(first), \(second)")
        }
        #expect(server.stop() == 0)
    }
}

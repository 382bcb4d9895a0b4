import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Idle connections cannot keep real requests waiting (issue #27, item 14): hundreds of
/// loopback connections that never send a request head are closed within seconds, and a
/// real request made behind them is answered.
@Suite struct IdleConnectionTests {
    /// A TCP connection to `127.0.0.1:port` that sends nothing.
    static func idleConnection(port: Int) -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(descriptor); return nil }
        return descriptor
    }

    @Test func silentConnectionsDoNotKeepARealRequestWaiting() throws {
        let server = try ServeProcess([ServeCommandTests.wasteland], publications: 1, home: LecternProcess())
        defer { server.stop() }
        var idle: [Int32] = []
        defer { for descriptor in idle { close(descriptor) } }
        for _ in 0..<400 {
            guard let descriptor = Self.idleConnection(port: server.port) else { break }
            idle.append(descriptor)
        }
        try #require(idle.count == 400, "only \(idle.count) connections opened")

        // Behind them, a real request: answered in seconds, not after the idle timeout (30 s).
        let started = ContinuousClock.now
        let response = try server.client.request(server.path() + "manifest.json")
        let waited = ContinuousClock.now - started
        #expect(response.status == 200)
        #expect(waited < .seconds(15), "the request waited \(waited)")

        // The silent connections were closed by the server (end of stream, read at once).
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        let first = idle[0]
        setsockopt(first, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var byte: UInt8 = 0
        #expect(recv(first, &byte, 1, 0) == 0, "a silent connection is still open")
        #expect(server.stop() == 0)
    }
}

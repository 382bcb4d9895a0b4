import Foundation
import Testing
import TestSupport

/// By default `lectern serve` listens on the loopback addresses only: `127.0.0.1` and, at the
/// same port, `::1` (when the machine has IPv6), and nowhere else.
@Suite struct LoopbackListeningTests {
    /// The local addresses (hexadecimal, as the kernel writes them) of the listening TCP
    /// sockets on `port`, from /proc/net/tcp and tcp6.
    static func listeningAddresses(port: Int) -> [String] {
        let portHex = String(format: "%04X", port)
        var addresses: [String] = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            // Read to the end: the kernel reports a size of 0, and String(contentsOfFile:) reads
            // one page of it — a busy machine's table is longer (seen under the sanitizer run).
            guard let handle = FileHandle(forReadingAtPath: table) else { continue }
            let text = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
            handle.closeFile()
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                // sl local_address rem_address st …; 0A is LISTEN.
                guard fields.count > 3, fields[3] == "0A" else { continue }
                let local = fields[1].split(separator: ":")
                if local.count == 2, local[1] == portHex { addresses.append(String(local[0])) }
            }
        }
        return addresses.sorted()
    }

    static let ipv4Loopback = "0100007F"
    static let ipv6Loopback = "00000000000000000000000001000000"

    static var machineHasIPv6Loopback: Bool {
        let descriptor = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        } == 0
    }

    @Test func bothLoopbackAddressesAndNothingElse() throws {
        let server = try ServeProcess([ServeCommandTests.wasteland], publications: 1, home: LecternProcess())
        defer { server.stop() }
        #expect(server.readerURLs[0].hasPrefix("http://127.0.0.1:\(server.port)/"))
        let manifest = server.path() + "manifest.json"
        #expect(try server.client.request(manifest).status == 200)

        let addresses = Self.listeningAddresses(port: server.port)
        if Self.machineHasIPv6Loopback {
            #expect(Set(addresses) == [Self.ipv4Loopback, Self.ipv6Loopback] && addresses.count == 2)
            let overIPv6 = RawHTTPClient(port: server.port, ipv6: true)
            let response = try overIPv6.request(manifest)
            #expect(response.status == 200)
            #expect(response.json?["readingOrder"] != nil)
            #expect(try overIPv6.request(manifest, host: "localhost:\(server.port)").status == 200)
            // The secret and the Host check hold there too.
            #expect(try overIPv6.request("/pub/1/manifest.json").status == 404)
            #expect(try overIPv6.request(manifest, host: "example.com:\(server.port)").status != 200)
        } else {
            #expect(addresses == [Self.ipv4Loopback])
        }
        #expect(server.stop() == 0)
    }

    @Test func anExplicitAddressIsTheOnlyOne() throws {
        let server = try ServeProcess([ServeCommandTests.wasteland, "--listen", "127.0.0.1"], publications: 1, home: LecternProcess())
        defer { server.stop() }
        #expect(Self.listeningAddresses(port: server.port) == [Self.ipv4Loopback])
        #expect(server.stop() == 0)
    }
}

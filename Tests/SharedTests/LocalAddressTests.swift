import Foundation
import Shared
import Testing
import TestSupport

/// `HTTPRequest.refusesLocalAddresses`: the addresses a name resolves to are checked as
/// libcurl connects, so neither an address literal nor a name (`localhost`) reaches this
/// machine or a private network (issue #27, item 2).
@Suite struct LocalAddressTests {
    @Test func addressesOfThisMachineAndLocalNetworksAreLocal() throws {
        for local in ["127.0.0.1", "127.8.9.10", "0.0.0.0", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.20",
                      "169.254.169.254", "100.64.0.1", "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fc00::1",
                      "fd12:3456::1", "ff02::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "64:ff9b::7f00:1", "[::1]"] {
            #expect(try #require(IPAddress(local), "\(local)").isLocal, "\(local)")
        }
        for global in ["93.184.216.34", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:2800:220:1::1", "::ffff:93.184.216.34"] {
            #expect(try #require(IPAddress(global), "\(global)").isLocal == false, "\(global)")
        }
        #expect(IPAddress("127.0.0.1")?.isLoopback == true && IPAddress("::1")?.isLoopback == true)
        #expect(IPAddress("10.0.0.1")?.isLoopback == false)
        #expect(IPAddress("localhost") == nil && IPAddress("127.lan.example") == nil)
        #expect(IPAddress("::ffff:127.0.0.1")?.description == "::ffff:127.0.0.1")
    }

    @Test func aRequestRefusingLocalAddressesNeverReachesALoopbackServer() throws {
        let server = try TestHTTPServer(routes: [TestHTTPRoute("/admin", text: "secret")])
        defer { server.stop() }
        let client = CurlHTTPClient(unresponsiveHosts: UnresponsiveHosts())
        for url in [server.url("/admin"), "http://localhost:\(server.port)/admin"] {
            var request = HTTPRequest(url: url, timeout: 10)
            request.refusesLocalAddresses = true
            switch client.send(request) {
            case .failure(.refusedAddress(let addresses)):
                #expect(addresses.contains("127.0.0.1") || addresses.contains("::1"), "\(addresses)")
            case let other:
                Issue.record("\(url): \(other)")
            }
        }
        #expect(server.requests.isEmpty)
        // The same request, allowed, is answered.
        #expect(try client.send(HTTPRequest(url: server.url("/admin"), timeout: 10)).get().body == Data("secret".utf8))
    }
}

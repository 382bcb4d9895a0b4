import Foundation
@testable import PublicationServer
import Shared
import Synchronization
import Testing
import TestSupport

/// `--listen`: an address is loopback when every address it resolves to is (issue #27 item 8:
/// a name beginning with `127.` proved nothing), and `0.0.0.0` answers the machine's own
/// addresses and the loopback names (item 16). Names are resolved by a test resolver: no
/// name is ever looked up on a network.
@Suite struct ListenAddressTests {
    /// A resolver that knows `names` only, and records what it was asked.
    final class FakeResolver: Sendable {
        let names: [String: [String]]
        let interfaces: [String]
        let asked = Mutex<[String]>([])

        init(_ names: [String: [String]], interfaces: [String] = ["127.0.0.1", "::1"]) {
            self.names = names
            self.interfaces = interfaces
        }

        var resolver: HostResolver {
            HostResolver(addresses: { host in
                self.asked.withLock { $0.append(host) }
                return (self.names[host] ?? []).compactMap(IPAddress.init)
            }, interfaceAddresses: { self.interfaces.compactMap(IPAddress.init) })
        }
    }

    @Test func aNameIsLoopbackOnlyWhenEveryAddressItResolvesToIs() {
        let fake = FakeResolver([
            "127.lan.example": ["192.168.1.20"], "127.any.example": ["0.0.0.0"], "loop.test": ["127.0.0.1", "::1"],
            "mixed.test": ["127.0.0.1", "10.0.0.5"],
        ])
        func loopback(_ host: String) -> Bool { ServerConfiguration(host: host, resolver: fake.resolver).isLoopback }
        #expect(!loopback("127.lan.example"))
        #expect(!loopback("127.any.example"))
        #expect(!loopback("127.unknown.example"))
        #expect(!loopback("mixed.test"))
        #expect(loopback("loop.test"))
        // Address literals are read, never looked up.
        #expect(loopback("127.0.0.1") && loopback("127.5.6.7") && loopback("::1"))
        #expect(!loopback("0.0.0.0") && !loopback("::") && !loopback("192.168.1.20"))
        #expect(!fake.asked.withLock { $0 }.contains { IPAddress($0) != nil })
    }

    /// A publication under a content protection (whose routes and rights are the defaults).
    final class TestProtection: ContentProtectionService {
        let isRestricted = false
        let error: (any Error)? = nil
        let name: LocalizedString? = nil
        let scheme = "test-drm"
    }

    @Test func aProtectedBookIsRefusedOnANameThatResolvesOffLoopback() throws {
        var builder = PublicationServicesBuilder()
        builder.set(PublicationServicesBuilder.contentProtection, { _ in TestProtection() })
        let publication = Publication(manifest: Manifest(metadata: Metadata(title: "Protected")), servicesBuilder: builder)
        try #require(publication.isProtected)
        let served = [ServedPublication(id: "1", publication: publication)]
        let fake = FakeResolver(["127.lan.example": ["192.168.1.20"], "127.any.example": ["0.0.0.0"], "loop.test": ["127.0.0.1"]])
        for host in ["127.lan.example", "127.any.example"] {
            #expect(throws: PublicationServerError.self, "\(host)") {
                try PublicationServer(publications: served, configuration: ServerConfiguration(host: host, resolver: fake.resolver))
            }
        }
        _ = try PublicationServer(publications: served, configuration: ServerConfiguration(host: "loop.test", resolver: fake.resolver))
    }

    @Test func theHostCheckFollowsWhatTheAddressResolvesTo() {
        let fake = FakeResolver(["127.lan.example": ["192.168.1.20"], "loop.test": ["127.0.0.1"]],
                                interfaces: ["127.0.0.1", "::1", "192.168.1.20", "fe80::1"])
        let lan = HostCheck(host: "127.lan.example", port: 8080, resolver: fake.resolver)
        #expect(lan.accepts("127.lan.example:8080"))
        #expect(!lan.accepts("127.0.0.1:8080") && !lan.accepts("localhost:8080"))
        #expect(HostCheck(host: "loop.test", port: 8080, resolver: fake.resolver).accepts("localhost:8080"))

        let any = HostCheck(host: "0.0.0.0", port: 8080, resolver: fake.resolver)
        for host in ["0.0.0.0:8080", "127.0.0.1:8080", "localhost:8080", "192.168.1.20:8080"] {
            #expect(any.accepts(host), "\(host)")
        }
        for host in ["evil.example:8080", "192.168.1.20:8081", "192.168.1.21:8080", "[fe80::1]:8080"] {
            #expect(!any.accepts(host), "\(host)")
        }
        let anyIPv6 = HostCheck(host: "::", port: 8080, resolver: fake.resolver)
        #expect(anyIPv6.accepts("[fe80::1]:8080") && anyIPv6.accepts("192.168.1.20:8080") && anyIPv6.accepts("[::1]:8080"))
        #expect(!anyIPv6.accepts("evil.example:8080"))
    }

    @Test func listeningOnEveryAddressAnswersTheMachinesOwnAddresses() throws {
        let server = try ServeProcess([ServeCommandTests.wasteland, "--listen", "0.0.0.0"], publications: 1, home: LecternProcess())
        defer { server.stop() }
        let manifest = server.path() + "manifest.json"
        // Connected over loopback each time: only the Host header differs.
        var hosts = ["127.0.0.1:\(server.port)", "localhost:\(server.port)", "0.0.0.0:\(server.port)"]
        if let own = HostResolver.system.interfaceAddresses().first(where: { $0.bytes.count == 4 && !$0.isLoopback }) {
            hosts.append("\(own):\(server.port)")
        }
        for host in hosts {
            #expect(try server.client.request(manifest, host: host).status == 200, "\(host)")
        }
        #expect(try server.client.request(manifest, host: "evil.example:\(server.port)").status == 421)
        #expect(server.stop() == 0)
    }
}

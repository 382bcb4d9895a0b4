import Foundation
@testable import AudiobookDRM
import Shared
import Testing
import TestSupport

/// The `license` link: fetched when the audiobook is opened for listening, failing only on a
/// definite unusable status; the real License Status Documents of the vectors are served from
/// 127.0.0.1 in place of the manifest's example.com link.
@Suite struct LicenseStatusTests {
    /// `feedbooks_rights_ok.json` (rights 2000-01-01 … 2000-02-01, no signature) with its
    /// license link pointing at `url`.
    func manifest(licenseURL url: String) throws -> String {
        let text = String(decoding: DRMTestKit.vectorBytes("feedbooks_rights_ok.json"), as: UTF8.self)
            .replacingOccurrences(of: "http://example.com/license/status", with: url)
        let path = Fixtures.temporaryDirectory("lsd") + "/feedbooks_rights_ok.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func open(_ route: TestHTTPRoute, listening: Bool = true, timeout: Double = 5) async throws -> (Publication, TestHTTPServer) {
        let server = try TestHTTPServer(routes: [route])
        let configuration = DRMTestKit.configuration(keySetURL: server.url("/unused"), clock: Clock("2000-01-01T00:10:00Z"),
                                                     licenseStatusTimeout: timeout)
        let publication = try await DRMTestKit.open(try manifest(licenseURL: server.url("/status")), configuration: configuration,
                                                    allowUserInteraction: listening)
        return (publication, server)
    }

    func statusRoute(_ vector: String) -> TestHTTPRoute {
        TestHTTPRoute("/status", headers: ["Content-Type": FeedbooksVocabulary.licenseStatusMediaType],
                      body: DRMTestKit.vectorBytes(vector))
    }

    @Test func anActiveLicensePasses() async throws {
        let (publication, server) = try await open(statusRoute("lcp_license_status.json"))
        defer { server.stop() }
        #expect(!publication.isRestricted)
        #expect(publication.feedbooksDRMReport?.licenseStatus == .passed)
        let request = try #require(server.requests.first { $0.path == "/status" })
        #expect(request.method == "GET")
        #expect(request.headers["authorization"] == nil)
    }

    @Test func aRevokedLicenseIsRestrictedWithItsStatus() async throws {
        let (publication, server) = try await open(statusRoute("lcp_license_status_revoked.json"))
        defer { server.stop() }
        #expect(publication.isRestricted)
        #expect(publication.drmError == .licenseStatus("revoked"))
        #expect(userMessage(of: try #require(publication.protectionError)) == "This audiobook license was revoked (license status “revoked”).")
    }

    @Test func aDocumentWithoutStatusIsSkipped() async throws {
        let (publication, server) = try await open(statusRoute("lcp_license_status_unspec.json"))
        defer { server.stop() }
        #expect(!publication.isRestricted)
        #expect(publication.feedbooksDRMReport?.licenseStatus == .skipped("the license status document gives no status"))
    }

    @Test(arguments: ["returned", "cancelled", "expired", "suspended"])
    func otherStatusesRestrict(status: String) async throws {
        let (publication, server) = try await open(TestHTTPRoute("/status", text: #"{"id": "x", "status": "\#(status)"}"#))
        defer { server.stop() }
        #expect(publication.drmError == .licenseStatus(status))
        #expect(userMessage(of: try #require(publication.protectionError)).contains("“\(status)”"))
    }

    @Test func readyPasses() async throws {
        let (publication, server) = try await open(TestHTTPRoute("/status", text: #"{"status": "ready"}"#))
        defer { server.stop() }
        #expect(publication.feedbooksDRMReport?.licenseStatus == .passed)
    }

    @Test func importingDoesNotFetchTheStatus() async throws {
        let (publication, server) = try await open(statusRoute("lcp_license_status_revoked.json"), listening: false)
        defer { server.stop() }
        #expect(!publication.isRestricted)
        #expect(server.requests.isEmpty)
        guard case .skipped? = publication.feedbooksDRMReport?.licenseStatus else {
            Issue.record("the status check ran")
            return
        }
    }

    @Test func serverFailuresSkipTheCheck() async throws {
        let failures: [TestHTTPRoute] = [
            TestHTTPRoute("/status", status: 500, text: #"{"status": "revoked"}"#),
            TestHTTPRoute("/status", status: 404, text: "not found"),
            TestHTTPRoute("/status", headers: ["Content-Type": "text/html"], text: "<html><body>Maintenance</body></html>"),
            TestHTTPRoute("/status", text: #"{"status": 7}"#),
            TestHTTPRoute("/status", text: #"["revoked"]"#),
            TestHTTPRoute("/status", behaviour: .close),
        ]
        for route in failures {
            let (publication, server) = try await open(route)
            defer { server.stop() }
            #expect(!publication.isRestricted, "\(route.status) \(route.behaviour)")
            guard case .skipped? = publication.feedbooksDRMReport?.licenseStatus else {
                Issue.record("not skipped for \(route.status) \(route.behaviour)")
                continue
            }
        }
    }

    @Test func aServerThatNeverAnswersIsSkippedAfterTheTimeout() async throws {
        let (publication, server) = try await open(TestHTTPRoute("/status", behaviour: .hang), timeout: 1)
        defer { server.stop() }
        #expect(!publication.isRestricted)
        guard case .skipped(let reason)? = publication.feedbooksDRMReport?.licenseStatus else {
            Issue.record("not skipped")
            return
        }
        #expect(reason.contains("did not answer in time"))
    }

    @Test func anUnreachableServerIsSkipped() async throws {
        let configuration = DRMTestKit.configuration(keySetURL: "https://unused.test/jwks", clock: Clock("2000-01-01T00:10:00Z"))
        let publication = try await DRMTestKit.open(try manifest(licenseURL: TestHTTPServer.refusingURL("/status")),
                                                    configuration: configuration, allowUserInteraction: true)
        #expect(!publication.isRestricted)
        guard case .skipped? = publication.feedbooksDRMReport?.licenseStatus else {
            Issue.record("not skipped")
            return
        }
    }

    @Test func onlyLicenseStatusLinksAreFollowed() throws {
        func url(_ links: String, location: String? = nil) throws -> String? {
            let text = #"{"metadata": {}, "links": \#(links)}"#
            return FeedbooksManifest(bytes: Array(text.utf8), location: location)?.licenseStatusURL
        }
        let type = FeedbooksVocabulary.licenseStatusMediaType
        #expect(try url(#"[{"rel": "license", "href": "https://a.test/s", "type": "\#(type)"}]"#) == "https://a.test/s")
        #expect(try url(#"[{"rel": ["alternate", "license"], "href": "https://a.test/s", "type": "\#(type); charset=utf-8"}]"#) == "https://a.test/s")
        #expect(try url(#"[{"rel": "license", "href": "https://a.test/s", "type": "application/json"}]"#) == nil)
        #expect(try url(#"[{"rel": "license", "href": "https://a.test/{id}", "type": "\#(type)", "templated": true}]"#) == nil)
        #expect(try url(#"[{"rel": "license", "href": "file:///etc/passwd", "type": "\#(type)"}]"#) == nil)
        #expect(try url(#"[{"rel": "license", "href": "status", "type": "\#(type)"}]"#) == nil)
        #expect(try url(#"[{"rel": "license", "href": "status", "type": "\#(type)"}]"#, location: "https://a.test/book/manifest.json")
            == "https://a.test/book/status")
        #expect(try url(#"[{"rel": "self", "href": "https://b.test/m.json"}, {"rel": "license", "href": "s", "type": "\#(type)"}]"#)
            == "https://b.test/s")
    }
}

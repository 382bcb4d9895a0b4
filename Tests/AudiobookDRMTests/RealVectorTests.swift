import Foundation
@testable import AudiobookDRM
import Shared
import Testing
import TestSupport

/// The Feedbooks vectors of the Palace Android tests (Tests/Fixtures/Samples/audiobook-drm),
/// opened through the publication opener with the key sets served from 127.0.0.1.
@Suite struct RealVectorTests {
    let server: TestHTTPServer

    init() throws {
        server = try TestHTTPServer(routes: [
            DRMTestKit.keySetRoute("/jwks_0.json", DRMTestKit.vectorBytes("jwks_0.json")),
            DRMTestKit.keySetRoute("/jwks_2.json", DRMTestKit.vectorBytes("jwks_2.json")),
        ])
    }

    func open(_ vector: String, at time: String, keySet: String = "/jwks_0.json") async throws -> Publication {
        let configuration = DRMTestKit.configuration(keySetURL: server.url(keySet), clock: Clock(time))
        return try await DRMTestKit.open(DRMTestKit.vector(vector), configuration: configuration)
    }

    @Test func theRealSignedManifestVerifiesInsideItsPeriod() async throws {
        let publication = try await open("feedbooks_2.json", at: "2020-01-01T00:00:00Z")
        defer { publication.close() }
        #expect(publication.isProtected)
        #expect(!publication.isRestricted)
        #expect(publication.protectionError == nil)
        #expect(publication.protectionName == "Signed audiobook (Feedbooks)")
        #expect(publication.contentProtectionService?.scheme == "http://www.feedbooks.com/audiobooks")
        #expect(await publication.rights.canCopy)
        #expect(await publication.rights.canPrint)
        let report = try #require(publication.feedbooksDRMReport)
        #expect(report.signature == .passed)
        #expect(report.rights == .passed)
        #expect(report.licenseStatus == .skipped("the manifest has no license status link"))
        #expect(report.accessRestrictedTracks == 41)
        #expect(publication.readingOrder.count == 41)
        #expect(publication.metadata.title == "Rise of the Dragons, Book 1")
        #expect(DRMTestKit.requestCount(server, "/jwks_0.json") == 1)
    }

    @Test func theRealSignedManifestHasExpired() async throws {
        let publication = try await open("feedbooks_2.json", at: "2020-02-19T00:00:01Z")
        defer { publication.close() }
        #expect(publication.isRestricted)
        #expect(publication.drmError == .expired(DRMTestKit.date("2020-02-19T00:00:00Z")))
        #expect(userMessage(of: try #require(publication.protectionError)) == "This audiobook loan expired on 2020-02-19 00:00 UTC.")
        #expect(await !publication.rights.canCopy)
        // Metadata stays readable; tracks are locked with the reason, without any request.
        #expect(publication.metadata.title == "Rise of the Dragons, Book 1")
        guard case .failure(.forbidden(let cause)) = publication.bytes(publication.readingOrder[0].href) else {
            Issue.record("the track is not forbidden")
            return
        }
        #expect(cause as? AudiobookDRMError == .expired(DRMTestKit.date("2020-02-19T00:00:00Z")))
        // The signature is not checked after the rights failed: no key-set request.
        #expect(DRMTestKit.requestCount(server, "/jwks_0.json") == 0)
        // The bound is inclusive.
        let lastMoment = try await open("feedbooks_2.json", at: "2020-02-19T00:00:00Z")
        #expect(!lastMoment.isRestricted)
    }

    @Test func aBorrowedSignatureDoesNotVerify() async throws {
        let publication = try await open("feedbooks_0.json", at: "2020-03-01T00:00:00Z")
        #expect(publication.drmError == .signatureInvalid(issuer: DRMTestKit.cantook))
        #expect(userMessage(of: try #require(publication.protectionError)).contains("signature is invalid"))
    }

    @Test func aSignatureWithoutIssuerIsRefused() async throws {
        let publication = try await open("feedbooks_1.json", at: "2020-01-01T00:00:00Z")
        #expect(publication.drmError == .unknownIssuer(nil))
        #expect(userMessage(of: try #require(publication.protectionError)).hasPrefix("Unknown signature issuer"))
        #expect(DRMTestKit.requestCount(server, "/jwks_0.json") == 0)
    }

    @Test func anECDSASignatureIsUnsupported() async throws {
        let publication = try await open("feedbooks_3.json", at: "2020-03-01T00:00:00Z")
        #expect(publication.drmError == .unsupportedAlgorithm("http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256"))
        #expect(userMessage(of: try #require(publication.protectionError)).hasPrefix("Unsupported signature algorithm"))
    }

    @Test func aKeySetThatIsNotOneCannotBeParsed() async throws {
        let publication = try await open("feedbooks_2.json", at: "2020-01-01T00:00:00Z", keySet: "/jwks_2.json")
        guard case .keysUnparseable(let issuer, let url, _)? = publication.drmError else {
            Issue.record("unexpected \(String(describing: publication.protectionError))")
            return
        }
        #expect(issuer == DRMTestKit.cantook)
        #expect(url == server.url("/jwks_2.json"))
        #expect(userMessage(of: try #require(publication.protectionError)).contains("could not be parsed"))
    }

    @Test func aKeySetThatCannotBeDownloadedFails() async throws {
        let missing = try await open("feedbooks_0.json", at: "2020-03-01T00:00:00Z", keySet: "/missing.json")
        guard case .keysUnavailable(_, _, let reason)? = missing.drmError else {
            Issue.record("unexpected \(String(describing: missing.protectionError))")
            return
        }
        #expect(reason == "HTTP 404")
        #expect(userMessage(of: try #require(missing.protectionError)).contains("could not be retrieved"))

        let configuration = DRMTestKit.configuration(keySetURL: TestHTTPServer.refusingURL("/jwks.json"),
                                                     clock: Clock("2020-01-01T00:00:00Z"))
        let refused = try await DRMTestKit.open(DRMTestKit.vector("feedbooks_2.json"), configuration: configuration)
        guard case .keysUnavailable? = refused.drmError else {
            Issue.record("unexpected \(String(describing: refused.protectionError))")
            return
        }
    }

    @Test(arguments: [
        ("feedbooks_rights_ok.json", "2000-01-01T00:10:00Z", nil),
        ("feedbooks_rights_ok.json", "1999-01-01T00:00:00Z", AudiobookDRMError.notYetAvailable(DRMTestKit.date("2000-01-01T00:00:00Z"))),
        ("feedbooks_rights_ok.json", "2002-01-01T00:00:00Z", AudiobookDRMError.expired(DRMTestKit.date("2000-02-01T00:00:00Z"))),
        ("feedbooks_rights_no_start.json", "2000-01-01T00:10:00Z", nil),
        ("feedbooks_rights_no_start.json", "1900-01-01T00:00:00Z", nil),
        ("feedbooks_rights_no_end.json", "2000-01-01T00:10:00Z", nil),
        ("feedbooks_rights_no_end.json", "2099-01-01T00:00:00Z", nil),
    ] as [(String, String, AudiobookDRMError?)])
    func rightsPeriods(vector: String, time: String, expected: AudiobookDRMError?) async throws {
        let publication = try await open(vector, at: time)
        #expect(publication.isProtected)
        #expect(publication.protectionName == "Audiobook loan (Feedbooks)")
        #expect(publication.drmError == expected)
        #expect(publication.isRestricted == (expected != nil))
        if expected == nil {
            #expect(publication.feedbooksDRMReport?.signature == .skipped("the manifest is not signed"))
        }
    }

    @Test func rightsMessagesNameTheDates() {
        #expect(AudiobookDRMError.notYetAvailable(DRMTestKit.date("2000-01-01T00:00:00Z")).userMessage
            == "This audiobook is not yet available until 2000-01-01 00:00 UTC.")
        #expect(AudiobookDRMError.expired(DRMTestKit.date("2000-02-01T13:45:59.5+02:00")).userMessage
            == "This audiobook loan expired on 2000-02-01 11:45 UTC.")
    }

    /// A rights period that is there but cannot be read fails closed: the book does not open.
    @Test func unreadableRightsDatesFailClosed() {
        let now = DRMTestKit.date("2020-01-01T00:00:00Z")
        let garbage = try! JSONParser.parse(#"{"start": "yesterday", "end": 12}"#)
        #expect(RightsPeriod.check(garbage, now: now) == .failed(.unreadableRightsPeriod("start and end")))
        #expect(AudiobookDRMError.unreadableRightsPeriod("start and end").userMessage
            == "This audiobook's rights period cannot be read (its start and end), so it is not opened.")
        let half = try! JSONParser.parse(#"{"start": "soon", "end": "2030-12-31T23:59:59Z"}"#)
        #expect(RightsPeriod.check(half, now: now) == .failed(.unreadableRightsPeriod("start")))
        #expect(RightsPeriod.check(.string("2000"), now: now) == .failed(.unreadableRightsPeriod("it is not a JSON object")))
        #expect(RightsPeriod.check(nil, now: now) == .skipped("the manifest has no rights period"))
        #expect(RightsPeriod.check(.null, now: now) == .skipped("the manifest has no rights period"))
        #expect(RightsPeriod.check(try! JSONParser.parse(#"{"start": null}"#), now: now) == .skipped("the rights period has no bounds"))
        // Fractional seconds count.
        let quarter = DRMTestKit.date("2020-01-01T00:00:00.250Z")
        #expect(RightsPeriod.check(try! JSONParser.parse(#"{"end": "2020-01-01T00:00:00.500Z"}"#), now: quarter) == .passed)
        #expect(RightsPeriod.check(try! JSONParser.parse(#"{"end": "2020-01-01T01:00:00.200+01:00"}"#), now: quarter)
            == .failed(.expired(DRMTestKit.date("2020-01-01T00:00:00.200Z"))))
        let dateOnly = try! JSONParser.parse(#"{"start": "2020-01-02"}"#)
        #expect(RightsPeriod.check(dateOnly, now: now) == .failed(.notYetAvailable(DRMTestKit.date("2020-01-02T00:00:00Z"))))
    }
}

import Foundation
@testable import AudiobookDRM
import Shared
import Streamer
import Testing
import TestSupport

/// Damaged and hostile manifests, signatures and key sets end in a clear error or a
/// restricted publication: never a crash, a hang, or an unverified book played.
@Suite struct HostileInputTests {
    let server: TestHTTPServer
    let clock = Clock("2024-05-01T12:00:00Z")

    init() throws {
        server = try TestHTTPServer(routes: [DRMTestKit.keySetRoute("/jwks.json", AudiobookSigner.keySet([DRMTestKit.signerA]))])
    }

    var configuration: AudiobookDRMConfiguration {
        DRMTestKit.configuration(issuer: DRMTestKit.testIssuer, keySetURL: server.url("/jwks.json"), clock: clock)
    }

    /// The error of a folder audiobook whose metadata ends with `extra` (a JSON fragment
    /// starting with a comma).
    func error(metadata extra: String) async throws -> AudiobookDRMError? {
        let path = try DRMTestKit.audiobookFolder(manifest: DRMTestKit.manifestJSON(extraMetadata: extra))
        return try await DRMTestKit.open(path, configuration: configuration).drmError
    }

    /// A signed audiobook whose rights period cannot be read is restricted, not opened.
    @Test func unreadableRightsPeriodsRestrictTheBook() async throws {
        let key = FeedbooksVocabulary.rightsKey
        #expect(try await error(metadata: #", "\#(key)": {"start": "not a date", "end": "2099-01-01T00:00:00Z"}"#)
            == .unreadableRightsPeriod("start"))
        #expect(try await error(metadata: #", "\#(key)": {"end": 20990101}"#) == .unreadableRightsPeriod("end"))
        #expect(try await error(metadata: #", "\#(key)": "always""#) == .unreadableRightsPeriod("it is not a JSON object"))
        #expect(try await error(metadata: #", "\#(key)": {"start": "2000-01-01T00:00:00Z", "end": "2099-01-01T00:00:00Z"}"#) == nil)
    }

    @Test func malformedSignatureObjects() async throws {
        let key = FeedbooksVocabulary.signatureKey
        let issuer = DRMTestKit.testIssuer, algorithm = FeedbooksVocabulary.rsaSHA256
        #expect(try await error(metadata: #", "\#(key)": "signed!""#) == .malformedSignature("it is not a JSON object"))
        #expect(try await error(metadata: #", "\#(key)": null"#) == .malformedSignature("it is not a JSON object"))
        #expect(try await error(metadata: #", "\#(key)": {"issuer": 42, "algorithm": "\#(algorithm)", "value": "AAAA"}"#) == .unknownIssuer(nil))
        #expect(try await error(metadata: #", "\#(key)": {"issuer": "  ", "algorithm": "\#(algorithm)", "value": "AAAA"}"#) == .unknownIssuer(nil))
        #expect(try await error(metadata: #", "\#(key)": {"issuer": "\#(issuer)", "value": "AAAA"}"#) == .unsupportedAlgorithm(nil))
        #expect(try await error(metadata: #", "\#(key)": {"issuer": "\#(issuer)", "algorithm": "\#(algorithm)"}"#)
            == .malformedSignature("it has no value"))
        #expect(try await error(metadata: #", "\#(key)": {"issuer": "\#(issuer)", "algorithm": "\#(algorithm)", "value": "!!not base64!!"}"#)
            == .malformedSignature("its value is not base64"))
        #expect(try await error(metadata: #", "\#(key)": {"issuer": "\#(issuer)", "algorithm": "\#(algorithm)", "value": ""}"#)
            == .malformedSignature("its value is not base64"))
        // A huge value is just an invalid signature.
        let huge = String(repeating: "QUFB", count: 250_000)
        #expect(try await error(metadata: #", "\#(key)": {"issuer": "\#(issuer)", "algorithm": "\#(algorithm)", "value": "\#(huge)"}"#)
            == .signatureInvalid(issuer: issuer))
    }

    @Test func duplicateMembersInASignedManifestAreRefused() async throws {
        // Signed, then given a second title that a last-wins reader would show.
        let signed = String(decoding: try DRMTestKit.signerA.sign(DRMTestKit.manifestJSON(), issuer: DRMTestKit.testIssuer), as: UTF8.self)
        let doubled = signed.replacingOccurrences(of: "\"metadata\": {", with: "\"metadata\": {\n    \"title\": \"Another book\",")
        let path = try DRMTestKit.audiobookFolder(manifest: Data(doubled.utf8))
        let publication = try await DRMTestKit.open(path, configuration: configuration)
        guard case .malformedSignature(let reason)? = publication.drmError else {
            Issue.record("unexpected \(String(describing: publication.protectionError))")
            return
        }
        #expect(reason.contains("duplicate"))
        #expect(publication.isRestricted)
    }

    @Test func aManifestThatIsNotJSONIsLeftToTheParser() async throws {
        for text in ["{\"metadata\": {\"http://www.feedbooks.com/audiobooks/rights\": {", "", "[]", "{\"metadata\": 3}", String(repeating: "[", count: 50_000)] {
            let folder = Fixtures.temporaryDirectory("hostile-manifest")
            let path = folder + "/book.audiobook-manifest.json"
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let asset = Asset(name: "book.audiobook-manifest.json", location: path, format: Format(kind: .audiobookManifest),
                              fetcher: FileFetcher(paths: ["": folder]))
            let protection = FeedbooksAudiobookProtection(configuration: configuration)
            let claimed = try await protection.open(asset: asset, fetcher: asset.fetcher, credentials: nil, allowUserInteraction: false,
                                                    sender: nil, onAskCredentials: nil)
            #expect(claimed == nil)
            await #expect(throws: OpeningError.self) {
                _ = try await PublicationOpener(contentProtections: [protection]).open(asset: asset, allowUserInteraction: false)
            }
        }
        #expect(server.requests.isEmpty)
    }

    @Test func otherFormatsAreNotClaimed() async throws {
        let protection = FeedbooksAudiobookProtection(configuration: configuration)
        for kind in [Format.Kind.epub, .webpubManifest, .lcpa, .zab, .divinaManifest] {
            let asset = Asset(name: "x", location: "/nonexistent/x", format: Format(kind: kind), fetcher: EmptyFetcher())
            let claimed = try await protection.open(asset: asset, fetcher: asset.fetcher, credentials: nil, allowUserInteraction: true,
                                                    sender: nil, onAskCredentials: nil)
            #expect(claimed == nil)
        }
        // An LCP audiobook is LCP's, even with the Feedbooks vocabulary.
        let lcp = Asset(name: "x", location: "/x", format: Format(kind: .audiobook, isLCPProtected: true),
                        fetcher: ProxyFetcher(strings: { _ in .success(String(decoding: DRMTestKit.vectorBytes("feedbooks_2.json"), as: UTF8.self)) }))
        #expect(try await protection.open(asset: lcp, fetcher: lcp.fetcher, credentials: nil, allowUserInteraction: true,
                                          sender: nil, onAskCredentials: nil) == nil)
    }

    @Test func aKeySetFullOfJunkKeysStillFindsTheGoodOne() async throws {
        var keys: [[String: String]] = (0..<20).map { ["kty": "RSA", "n": String(repeating: "_", count: $0 * 50 + 1), "e": "AQAB"] }
        keys.append(["kty": "RSA", "http://www.feedbooks.com/audiobooks/signature/pem-key": "-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----"])
        keys.append(DRMTestKit.signerA.jwk)
        let junk = try JSONSerialization.data(withJSONObject: ["keys": keys])
        try server.setRoutes([DRMTestKit.keySetRoute("/jwks.json", junk)])
        let path = try DRMTestKit.audiobookFolder(manifest: try DRMTestKit.signerA.sign(DRMTestKit.manifestJSON(), issuer: DRMTestKit.testIssuer))
        let publication = try await DRMTestKit.open(path, configuration: configuration)
        #expect(!publication.isRestricted, "\(String(describing: publication.protectionError))")
    }
}

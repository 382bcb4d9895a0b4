import Foundation
@testable import AudiobookDRM
import LibCrypto
import Shared
import Testing
import TestSupport

/// Manifests signed by the tests themselves (openssl key, Python canonical form), written with
/// their members out of order, non-ASCII text and `/` in strings, opened through the opener
/// with their key set served from 127.0.0.1.
@Suite struct SignedManifestTests {
    let server: TestHTTPServer
    let clock = Clock("2024-05-01T12:00:00Z")

    init() throws {
        server = try TestHTTPServer(routes: [DRMTestKit.keySetRoute("/jwks.json", AudiobookSigner.keySet([DRMTestKit.signerA]))])
    }

    var configuration: AudiobookDRMConfiguration {
        DRMTestKit.configuration(issuer: DRMTestKit.testIssuer, keySetURL: server.url("/jwks.json"), clock: clock)
    }

    func signed(_ manifest: Data = DRMTestKit.manifestJSON(), issuer: String? = DRMTestKit.testIssuer,
                algorithm: String = AudiobookSigner.rsaSHA256, asciiOnly: Bool = false) throws -> Data {
        try DRMTestKit.signerA.sign(manifest, issuer: issuer, algorithm: algorithm, asciiOnly: asciiOnly)
    }

    func open(_ manifest: Data) async throws -> Publication {
        try await DRMTestKit.open(try DRMTestKit.audiobookFolder(manifest: manifest), configuration: configuration)
    }

    /// `text` with `old` replaced, as bytes.
    func replacing(_ data: Data, _ old: String, _ new: String) -> Data {
        let text = String(decoding: data, as: UTF8.self)
        precondition(text.contains(old), "\(old) not found")
        return Data(text.replacingOccurrences(of: old, with: new).utf8)
    }

    @Test func aSignedManifestVerifiesAndItsTracksAreReadable() async throws {
        let manifest = try signed()
        // Written out of canonical order and pretty-printed: re-canonicalisation is needed.
        #expect(String(decoding: manifest, as: UTF8.self).hasPrefix("{\n  \"readingOrder\""))
        let publication = try await open(manifest)
        defer { publication.close() }
        #expect(publication.protectionName == "Signed audiobook (Feedbooks)")
        #expect(!publication.isRestricted, "\(String(describing: publication.protectionError))")
        #expect(publication.feedbooksDRMReport?.signature == .passed)
        #expect(publication.metadata.title == "Le Petit Prince — voix/lecture «Ève»")
        #expect(try publication.bytes("audio/track1.mp3").get() == DRMTestKit.trackBytes)
        #expect(try publication.bytes("images/cover.jpg").get() == DRMTestKit.coverBytes)
    }

    @Test func escapesInTheFileDoNotMatterButInTheCanonicalFormTheyDo() async throws {
        // The same document with non-ASCII as \u escapes and `/` as `\/`: it still verifies,
        // since the canonical form is rebuilt from the parsed values.
        let ascii = try signed(asciiOnly: true)
        #expect(!String(decoding: ascii, as: UTF8.self).contains("Ève"))
        let escaped = replacing(ascii, "voix/lecture", "voix\\/lecture")
        #expect(!(try await open(escaped)).isRestricted)

        // A canonical form that escaped `/` (as JSONSerialization does) would not verify.
        let json = try JSONParser.parse(escaped)
        let value = try #require(json["metadata"]?[FeedbooksVocabulary.signatureKey]?["value"]?.string.flatMap(Base64.decode))
        let canonical = SignedManifestCanonicalForm.bytes(SignedManifestCanonicalForm.unsigned(json))
        let keys = try JSONWebKeySet(data: AudiobookSigner.keySet([DRMTestKit.signerA]))
        #expect(keys.verifies(value, of: canonical))
        let slashEscaped = Array(String(decoding: canonical, as: UTF8.self).replacingOccurrences(of: "/", with: "\\/").utf8)
        #expect(!keys.verifies(value, of: slashEscaped))
        // Nor would one that escaped non-ASCII.
        let asciiEscaped = String(decoding: canonical, as: UTF8.self).unicodeScalars.map { scalar in
            scalar.isASCII ? String(scalar) : String(format: "\\u%04x", scalar.value)
        }.joined()
        #expect(!keys.verifies(value, of: Array(asciiEscaped.utf8)))
    }

    @Test func oneChangedCharacterOfTheTitleBreaksTheSignature() async throws {
        let tampered = replacing(try signed(), "Le Petit Prince", "Le Petit Princf")
        let publication = try await open(tampered)
        #expect(publication.isRestricted)
        #expect(publication.drmError == .signatureInvalid(issuer: DRMTestKit.testIssuer))
        // Metadata and cover stay readable, the track and its alternate are locked.
        #expect(publication.metadata.title == "Le Petit Princf — voix/lecture «Ève»")
        #expect(try publication.bytes("images/cover.jpg").get() == DRMTestKit.coverBytes)
        for href in ["audio/track1.mp3", "audio/track1.ogg", "audio/track1.mp3#t=10", "manifest.json", "unlisted.mp3"] {
            let answer = publication.bytes(href)
            guard case .failure(.forbidden(let cause)) = answer else {
                Issue.record("\(href) is not forbidden: \(answer)")
                continue
            }
            #expect(cause as? AudiobookDRMError == .signatureInvalid(issuer: DRMTestKit.testIssuer))
        }
        #expect(await !publication.rights.canCopy)
    }

    @Test func aFlippedSignatureByteBreaksIt() async throws {
        let manifest = try signed()
        let json = try JSONParser.parse(manifest)
        let value = try #require(json["metadata"]?[FeedbooksVocabulary.signatureKey]?["value"]?.string)
        var bytes = try #require(Base64.decode(value))
        bytes[100] ^= 0x40
        let flipped = replacing(manifest, value, Data(bytes).base64EncodedString())
        #expect(try await open(flipped).drmError == .signatureInvalid(issuer: DRMTestKit.testIssuer))
    }

    @Test func anUntrustedIssuerIsRefusedEvenWithAValidSignature() async throws {
        let publication = try await open(try signed(issuer: "https://other.test"))
        #expect(publication.drmError == .unknownIssuer("https://other.test"))
        #expect(DRMTestKit.requestCount(server, "/jwks.json") == 0)
        // The default key-set location of a trusted issuer is under its own origin.
        #expect(AudiobookDRMConfiguration(trustedIssuers: ["https://a.test/": nil].compactMapValues { $0 }).keySetURL(issuer: "https://a.test") == nil)
        var trusting = AudiobookDRMConfiguration(trustedIssuers: [:])
        trusting.trust(issuer: "https://a.test/")
        #expect(trusting.keySetURL(issuer: "https://a.test") == "https://a.test/.well-known/jwks.json")
        #expect(AudiobookDRMConfiguration().keySetURL(issuer: "https://www.cantookaudio.com/")
            == "https://listen.cantookaudio.com/.well-known/jwks.json")
    }

    @Test func anotherAlgorithmIsUnsupported() async throws {
        let publication = try await open(try signed(algorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha1"))
        #expect(publication.drmError == .unsupportedAlgorithm("http://www.w3.org/2001/04/xmldsig-more#rsa-sha1"))
    }

    /// Whether the primary canonical form (no variant) of `manifest` verifies with key A.
    func primaryFormVerifies(_ manifest: Data) throws -> Bool {
        let json = try JSONParser.parse(manifest)
        let value = try #require(json["metadata"]?[FeedbooksVocabulary.signatureKey]?["value"]?.string.flatMap(Base64.decode))
        let keys = try JSONWebKeySet(data: AudiobookSigner.keySet([DRMTestKit.signerA]))
        return keys.verifies(value, of: SignedManifestCanonicalForm.bytes(SignedManifestCanonicalForm.unsigned(json)))
    }

    @Test func numbersWrittenDifferentlyFromTheSignerStillVerify() async throws {
        // Python canonicalises 567.30 as 567.3; the literal of the file is tried first, then the
        // shortest round trip.
        let manifest = replacing(try signed(), "567.3", "567.30")
        #expect(try !primaryFormVerifies(manifest))
        #expect(!(try await open(manifest)).isRestricted)
        // A different value is a different document.
        #expect(try await open(replacing(try signed(), "567.3", "567.4")).isRestricted)
    }

    @Test func controlCharactersAndLineSeparatorsVerifyAsPythonWritesThem() async throws {
        let manifest = try signed(DRMTestKit.manifestJSON(title: #"Ligne\nnouvelle\u2028séparée\u0007"#))
        // The canonical writer escapes U+2028 (as Go does), Python does not.
        #expect(try !primaryFormVerifies(manifest))
        let publication = try await open(manifest)
        #expect(!publication.isRestricted, "\(String(describing: publication.protectionError))")
        #expect(publication.metadata.title == "Ligne\nnouvelle\u{2028}séparée\u{07}")
    }

    @Test func aPackagedAudiobookIsCheckedToo() async throws {
        func package(_ manifest: Data) throws -> String {
            let path = Fixtures.temporaryDirectory("audiobook-package") + "/book.audiobook"
            try ZipBuilder.write([
                ZipBuilder.Entry("manifest.json", manifest),
                ZipBuilder.Entry("audio/track1.mp3", DRMTestKit.trackBytes, compression: .stored),
                ZipBuilder.Entry("images/cover.jpg", DRMTestKit.coverBytes, compression: .stored),
            ], to: path)
            return path
        }
        let good = try await DRMTestKit.open(try package(try signed()), configuration: configuration)
        #expect(good.format?.kind == .audiobook)
        #expect(!good.isRestricted)
        #expect(try good.bytes("audio/track1.mp3").get() == DRMTestKit.trackBytes)

        let bad = try await DRMTestKit.open(try package(replacing(try signed(), "Chapitre 1", "Chapitre 2")), configuration: configuration)
        #expect(bad.isRestricted)
        guard case .failure(.forbidden) = bad.bytes("audio/track1.mp3") else {
            Issue.record("the track of a restricted package is readable")
            return
        }
        #expect(try bad.bytes("images/cover.jpg").get() == DRMTestKit.coverBytes)
    }

    @Test func aRemoteManifestIsVerifiedOnceAndParsedFromTheVerifiedBytes() async throws {
        let manifest = try signed()
        let remote = try TestHTTPServer(routes: [
            TestHTTPRoute("/book/manifest.json", headers: ["Content-Type": "application/audiobook+json"], body: manifest),
            TestHTTPRoute("/book/audio/track1.mp3", headers: ["Content-Type": "audio/mpeg"], body: DRMTestKit.trackBytes),
            TestHTTPRoute("/book/images/cover.jpg", headers: ["Content-Type": "image/jpeg"], body: DRMTestKit.coverBytes),
            DRMTestKit.keySetRoute("/jwks.json", AudiobookSigner.keySet([DRMTestKit.signerA])),
        ])
        defer { remote.stop() }
        let configuration = DRMTestKit.configuration(issuer: DRMTestKit.testIssuer, keySetURL: remote.url("/jwks.json"),
                                                     clock: clock, cacheDirectory: nil)
        let publication = try await DRMTestKit.open(remote.url("/book/manifest.json"), configuration: configuration)
        defer { publication.close() }
        #expect(!publication.isRestricted, "\(String(describing: publication.protectionError))")
        #expect(try publication.bytes(publication.readingOrder[0].href).get() == DRMTestKit.trackBytes)
        // Sniffing reads a prefix; the protection reads the whole manifest once and the parser
        // reads those same bytes instead of asking again.
        let whole = remote.requests.filter { $0.path == "/book/manifest.json" && $0.method == "GET" && $0.headers["range"] == nil }
        #expect(whole.count <= 1)

        let tampered = try TestHTTPServer(routes: [
            TestHTTPRoute("/book/manifest.json", headers: ["Content-Type": "application/audiobook+json"],
                          body: replacing(manifest, "Chapitre", "Chapter")),
            TestHTTPRoute("/book/audio/track1.mp3", body: DRMTestKit.trackBytes),
            DRMTestKit.keySetRoute("/jwks.json", AudiobookSigner.keySet([DRMTestKit.signerA])),
        ])
        defer { tampered.stop() }
        let locked = try await DRMTestKit.open(tampered.url("/book/manifest.json"), configuration: DRMTestKit.configuration(
            issuer: DRMTestKit.testIssuer, keySetURL: tampered.url("/jwks.json"), clock: clock, cacheDirectory: nil))
        #expect(locked.isRestricted)
        guard case .failure(.forbidden) = locked.bytes(locked.readingOrder[0].href) else {
            Issue.record("a track of a restricted remote audiobook is readable")
            return
        }
        // A locked track is never requested.
        #expect(DRMTestKit.requestCount(tampered, "/book/audio/track1.mp3") == 0)
    }

    @Test func accessRestrictedTracksExplainARefusal() async throws {
        let manifest = try signed(DRMTestKit.manifestJSON(accessRestricted: true))
        let remote = try TestHTTPServer(routes: [
            TestHTTPRoute("/book/manifest.json", headers: ["Content-Type": "application/audiobook+json"], body: manifest),
            TestHTTPRoute("/book/audio/track1.mp3", status: 403, text: "token required"),
            TestHTTPRoute("/book/audio/track1.ogg", status: 401, text: "token required"),
            TestHTTPRoute("/book/images/cover.jpg", body: DRMTestKit.coverBytes),
            DRMTestKit.keySetRoute("/jwks.json", AudiobookSigner.keySet([DRMTestKit.signerA])),
        ])
        defer { remote.stop() }
        let configuration = DRMTestKit.configuration(issuer: DRMTestKit.testIssuer, keySetURL: remote.url("/jwks.json"),
                                                     clock: clock, cacheDirectory: nil)
        let publication = try await DRMTestKit.open(remote.url("/book/manifest.json"), configuration: configuration)
        defer { publication.close() }
        #expect(!publication.isRestricted)
        #expect(publication.feedbooksDRMReport?.accessRestrictedTracks == 1)
        for href in [publication.readingOrder[0].href, remote.url("/book/audio/track1.ogg")] {
            let answer = publication.bytes(href)
            guard case .failure(.forbidden(let cause)) = answer else {
                Issue.record("\(href) is not forbidden: \(answer)")
                continue
            }
            #expect(cause is AccessRestrictionError)
            #expect(userMessage(of: try #require(cause)).contains("lending library's app"))
        }
        // A server that sends the track anyway is read normally.
        try remote.setRoutes([
            TestHTTPRoute("/book/audio/track1.mp3", body: DRMTestKit.trackBytes),
        ])
        #expect(try publication.bytes(publication.readingOrder[0].href).get() == DRMTestKit.trackBytes)
    }

    @Test func manifestsWithoutTheFeedbooksVocabularyAreNotClaimed() async throws {
        let plain = try await open(DRMTestKit.manifestJSON(rights: nil))
        #expect(!plain.isProtected)
        #expect(try plain.bytes("audio/track1.mp3").get() == DRMTestKit.trackBytes)
        let flatland = try await DRMTestKit.open(Fixtures.sample("audiobook/readium-flatland-librivox.audiobook-manifest.json"),
                                                 configuration: configuration)
        #expect(!flatland.isProtected)
        let package = try await DRMTestKit.open(Fixtures.sample("audiobook/derived-w3c-mol-navigation.audiobook"), configuration: configuration)
        #expect(!package.isProtected)
        #expect(server.requests.isEmpty)
    }
}

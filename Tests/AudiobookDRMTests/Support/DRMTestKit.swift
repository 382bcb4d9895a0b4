import Foundation
@testable import AudiobookDRM
import Shared
import Streamer
import TestSupport

/// Shared pieces of the signed-audiobook tests: the vectors, pinned clocks, test keys, a
/// manifest generator, and opening through the real opener.
enum DRMTestKit {
    static let cantook = "https://www.cantookaudio.com"
    static let testIssuer = "https://issuer.test"

    static func vector(_ name: String) -> String { Fixtures.sample("audiobook-drm/" + name) }
    static func vectorBytes(_ name: String) -> Data { Fixtures.bytes(vector(name)) }

    /// An instant from an RFC 3339 text.
    static func date(_ text: String) -> Date { RFC3339Date.parse(text)! }

    /// Two test keys, made once per test process (key rotation needs a second one).
    static let signerA = try! AudiobookSigner(kid: "key-a")
    static let signerB = try! AudiobookSigner(kid: "key-b")

    /// A configuration trusting `issuer` with keys at `keySetURL`, the clock pinned at `now`
    /// (moved by tests through the box), and a fresh cache folder.
    static func configuration(issuer: String = cantook, keySetURL: String, clock: Clock,
                              cacheDirectory: String? = Fixtures.temporaryDirectory("jwks-cache"),
                              keySetTimeout: Double = 10, licenseStatusTimeout: Double = 5) -> AudiobookDRMConfiguration {
        var configuration = AudiobookDRMConfiguration(trustedIssuers: [:], now: { clock.now },
                                                      keySetCacheDirectory: cacheDirectory,
                                                      keySetTimeout: keySetTimeout, licenseStatusTimeout: licenseStatusTimeout)
        configuration.trust(issuer: issuer, keySetURL: keySetURL)
        return configuration
    }

    /// Opens `location` (a path or URL) through the publication opener with the Feedbooks
    /// protection (after nothing else, as the only third-party protection here).
    static func open(_ location: String, configuration: AudiobookDRMConfiguration,
                     allowUserInteraction: Bool = false) async throws -> Publication {
        let retriever = AssetRetriever()
        let asset = Href.isHTTP(location) ? try retriever.retrieve(url: location) : try retriever.retrieve(path: location)
        let opener = PublicationOpener(contentProtections: [FeedbooksAudiobookProtection(configuration: configuration)])
        return try await opener.open(asset: asset, allowUserInteraction: allowUserInteraction)
    }

    /// The manifest of a small audiobook without signature, written with its members out of
    /// order and everything a canonicaliser can get wrong: non-ASCII, `/` in strings, `null`s,
    /// nested arrays, a fractional number, an empty object.
    static func manifestJSON(title: String = "Le Petit Prince — voix/lecture «Ève»", duration: String = "567.3",
                             rights: (start: String?, end: String?)? = ("2000-01-01T00:00:00Z", "2100-01-01T00:00:00Z"),
                             licenseURL: String? = nil, accessRestricted: Bool = false,
                             trackHref: String = "audio/track1.mp3", extraMetadata: String = "") -> Data {
        func literal(_ text: String?) -> String { text.map { "\"\($0)\"" } ?? "null" }
        let rightsMember = rights.map {
            "\"http://www.feedbooks.com/audiobooks/rights\": {\"end\": \(literal($0.end)), \"start\": \(literal($0.start))},"
        } ?? ""
        let license = licenseURL.map {
            ", {\"rel\": \"license\", \"type\": \"application/vnd.readium.license.status.v1.0+json\", \"href\": \"\($0)\"}"
        } ?? ""
        let restriction = accessRestricted
            ? ", \"properties\": {\"encrypted\": {\"scheme\": \"http://www.feedbooks.com/audiobooks/access-restriction\", \"profile\": \"https://www.cantookaudio.com\"}}"
            : ""
        let text = """
            {
              "readingOrder": [
                {"type": "audio/mpeg", "href": "\(trackHref)", "title": "Chapitre 1 / Kapitel 1", "duration": \(duration),
                 "alternates": [{"href": "audio/track1.ogg", "type": "audio/ogg", "bitrate": null}]\(restriction)}
              ],
              "metadata": {
                "title": "\(title)",
                \(rightsMember)
                "@type": "http://schema.org/Audiobook",
                "conformsTo": "https://readium.org/webpub-manifest/profiles/audiobook",
                "language": ["fr", "de"],
                "duration": \(duration),
                "subject": [[{"name": "Conte"}], []],
                "extension": {"z": 1, "a": {}, "m": [null, true, false, 0, 12]}\(extraMetadata)
              },
              "@context": "https://readium.org/webpub-manifest/context.jsonld",
              "resources": [{"type": "image/jpeg", "rel": "cover", "href": "images/cover.jpg"}],
              "links": [{"href": "https://example.com/books/petit-prince?x=1&y=/2", "rel": "self", "type": "application/audiobook+json"}\(license)]
            }
            """
        return Data(text.utf8)
    }

    /// A folder with `manifest.json` (the given bytes), its track and its cover; returns the
    /// manifest's path.
    static func audiobookFolder(manifest: Data, trackHref: String = "audio/track1.mp3") throws -> String {
        let folder = Fixtures.temporaryDirectory("signed-audiobook")
        try FileManager.default.createDirectory(atPath: folder + "/audio", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/images", withIntermediateDirectories: true)
        try trackBytes.write(to: URL(fileURLWithPath: folder + "/" + trackHref))
        try coverBytes.write(to: URL(fileURLWithPath: folder + "/images/cover.jpg"))
        let path = folder + "/manifest.json"
        try manifest.write(to: URL(fileURLWithPath: path))
        return path
    }

    static let trackBytes = Data((0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    static let coverBytes = Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: UInt8(0x42), count: 200))

    /// A route serving a key set.
    static func keySetRoute(_ path: String = "/jwks.json", _ body: Data, maxAge: Int? = nil, status: Int = 200) -> TestHTTPRoute {
        var headers = ["Content-Type": "application/json"]
        if let maxAge { headers["Cache-Control"] = "public, max-age=\(maxAge)" }
        return TestHTTPRoute(path, status: status, headers: headers, body: body)
    }

    /// How many requests `server` received for `path`.
    static func requestCount(_ server: TestHTTPServer, _ path: String) -> Int {
        server.requests.filter { $0.path == path }.count
    }
}

/// A clock that tests move.
final class Clock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ text: String) {
        current = DRMTestKit.date(text)
    }

    var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    func set(_ text: String) {
        lock.lock()
        current = DRMTestKit.date(text)
        lock.unlock()
    }

    func advance(_ seconds: TimeInterval) {
        lock.lock()
        current = current.addingTimeInterval(seconds)
        lock.unlock()
    }
}

extension Publication {
    /// The protection error as the module's type.
    var drmError: AudiobookDRMError? { protectionError as? AudiobookDRMError }

    /// The bytes of `href`, or the error.
    func bytes(_ href: String) -> ResourceResult<Data> {
        let resource = get(href)
        defer { resource.close() }
        return resource.read()
    }
}

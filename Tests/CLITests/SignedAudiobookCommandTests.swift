import Foundation
import Testing
import TestSupport

/// `lectern info` and `check` on signed Feedbooks audiobook manifests: the real vectors (their
/// issuer's key set served from 127.0.0.1 through `LECTERN_AUDIOBOOK_ISSUERS`, the clock pinned
/// with `LECTERN_TEST_NOW`) and audiobooks the tests sign; valid ones exit 0, restricted ones 3
/// with their reason.
@Suite struct SignedAudiobookCommandTests {
    static let cantook = "https://www.cantookaudio.com"
    static let testIssuer = "https://issuer.test"
    static let signer = try! AudiobookSigner(kid: "cli-key")

    let lectern = LecternProcess()
    let server: TestHTTPServer

    init() throws {
        server = try TestHTTPServer(routes: [
            TestHTTPRoute("/jwks_0.json", headers: ["Content-Type": "application/json"],
                          body: Fixtures.bytes(Fixtures.sample("audiobook-drm/jwks_0.json"))),
            TestHTTPRoute("/jwks_2.json", body: Fixtures.bytes(Fixtures.sample("audiobook-drm/jwks_2.json"))),
            TestHTTPRoute("/test-jwks.json", headers: ["Content-Type": "application/json"], body: AudiobookSigner.keySet([Self.signer])),
        ])
    }

    func vector(_ name: String) -> String { Fixtures.sample("audiobook-drm/" + name) }

    /// Runs `lectern arguments` with the Cantook issuer's keys at `keySet` on the test server.
    func run(_ arguments: [String], now: String?, keySet: String = "/jwks_0.json",
             extra: [String: String] = [:]) throws -> LecternProcess.Result {
        var environment = ["LECTERN_AUDIOBOOK_ISSUERS": "\(Self.cantook)=\(server.url(keySet)) \(Self.testIssuer)=\(server.url("/test-jwks.json"))"]
        if let now { environment["LECTERN_TEST_NOW"] = now }
        environment.merge(extra) { $1 }
        return try lectern.run(arguments, environment: environment)
    }

    /// The `protection` object of `info --json`.
    func protection(_ result: LecternProcess.Result) throws -> [String: Any] {
        try #require((result.json as? [String: Any])?["protection"] as? [String: Any])
    }

    @Test func theRealSignedManifestIsValidInsideItsPeriod() throws {
        let result = try run(["info", "--json", vector("feedbooks_2.json")], now: "2020-01-01T00:00:00Z")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let protection = try protection(result)
        #expect(protection["name"] as? String == "Signed audiobook (Feedbooks)")
        #expect(protection["scheme"] as? String == "http://www.feedbooks.com/audiobooks")
        #expect(protection["restricted"] as? Bool == false)
        #expect(protection["error"] is NSNull)

        // The key set was cached privately under $XDG_CACHE_HOME/lectern/jwks.
        let cache = lectern.home + "/cache/lectern/jwks"
        let files = try FileManager.default.contentsOfDirectory(atPath: cache)
        #expect(files.count == 1)
        let mode = try FileManager.default.attributesOfItem(atPath: cache + "/" + files[0])[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)

        let text = try run(["info", vector("feedbooks_2.json")], now: "2020-01-01T00:00:00Z")
        #expect(text.status == 0)
        #expect(text.stdout.contains("Protection:   Signed audiobook (Feedbooks)\n"))
    }

    @Test(arguments: [
        ("feedbooks_2.json", nil, "/jwks_0.json", "This audiobook loan expired on 2020-02-19 00:00 UTC."),
        ("feedbooks_0.json", "2020-03-01T00:00:00Z", "/jwks_0.json", "The audiobook's signature is invalid"),
        ("feedbooks_0.json", "2020-03-01T00:00:00Z", "/missing.json", "could not be retrieved"),
        ("feedbooks_1.json", "2020-01-01T00:00:00Z", "/jwks_0.json", "Unknown signature issuer"),
        ("feedbooks_3.json", "2020-03-01T00:00:00Z", "/jwks_0.json", "Unsupported signature algorithm"),
        ("feedbooks_2.json", "2020-01-01T00:00:00Z", "/jwks_2.json", "could not be parsed"),
        ("feedbooks_rights_ok.json", "1999-01-01T00:00:00Z", "/jwks_0.json", "This audiobook is not yet available until 2000-01-01 00:00 UTC."),
        ("feedbooks_rights_ok.json", "2002-01-01T00:00:00Z", "/jwks_0.json", "This audiobook loan expired on 2000-02-01 00:00 UTC."),
    ] as [(String, String?, String, String)])
    func invalidVectorsExitThreeWithTheirReason(vector name: String, now: String?, keySet: String, reason: String) throws {
        for command in ["info", "check"] {
            let result = try run([command, vector(name)], now: now, keySet: keySet)
            #expect(result.status == 3, "\(command) \(name): \(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains(reason), "\(command) \(name): \(result.stdout)")
        }
        let json = try run(["info", "--json", vector(name)], now: now, keySet: keySet)
        #expect(json.status == 3)
        #expect((try protection(json)["error"] as? String)?.contains(reason) == true)
    }

    @Test(arguments: ["feedbooks_rights_ok.json", "feedbooks_rights_no_start.json", "feedbooks_rights_no_end.json"])
    func rightsVectorsAreValidInsideTheirPeriod(vector name: String) throws {
        let result = try run(["info", "--json", vector(name)], now: "2000-01-01T00:10:00Z")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try protection(result)["name"] as? String == "Audiobook loan (Feedbooks)")
    }

    /// A signed audiobook folder whose track and cover are local.
    func signedBook(tamper: Bool = false) throws -> String {
        let manifest = """
            {"metadata": {"title": "Signé / Signed", "@type": "http://schema.org/Audiobook", "duration": 12.5,
              "http://www.feedbooks.com/audiobooks/rights": {"start": "2020-01-01T00:00:00Z", "end": null}},
             "readingOrder": [{"href": "track.mp3", "type": "audio/mpeg", "duration": 12.5}],
             "resources": [{"href": "cover.jpg", "type": "image/jpeg", "rel": "cover"}]}
            """
        var signed = try Self.signer.sign(Data(manifest.utf8), issuer: Self.testIssuer)
        if tamper {
            signed = Data(String(decoding: signed, as: UTF8.self).replacingOccurrences(of: "12.5", with: "13.5").utf8)
        }
        let folder = Fixtures.temporaryDirectory("cli-signed-audiobook")
        try Data(repeating: 0x55, count: 3000).write(to: URL(fileURLWithPath: folder + "/track.mp3"))
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]).write(to: URL(fileURLWithPath: folder + "/cover.jpg"))
        try signed.write(to: URL(fileURLWithPath: folder + "/book.json"))
        return folder + "/book.json"
    }

    /// An issuer Lectern does not know is named in the error, shown and never executed.
    @Test func aHostileIssuerIsShownNotExecuted() throws {
        let manifest = """
            {"metadata": {"title": "Signed", "@type": "http://schema.org/Audiobook"},
             "readingOrder": [{"href": "track.mp3", "type": "audio/mpeg", "duration": 12.5}]}
            """
        let signed = try Self.signer.sign(Data(manifest.utf8), issuer: "https://issuer.test/" + TerminalSafety.payload)
        let folder = Fixtures.temporaryDirectory("cli-signed-hostile")
        try Data(repeating: 0x55, count: 3000).write(to: URL(fileURLWithPath: folder + "/track.mp3"))
        try signed.write(to: URL(fileURLWithPath: folder + "/book.json"))
        for arguments in [["info"], ["check"], ["info", "--json"]] {
            let result = try run(arguments + [folder + "/book.json"], now: nil)
            #expect(result.status == 3, "\(arguments): \(result.stdout)\(result.stderr)")
            let output = result.stdout + result.stderr
            #expect(TerminalSafety.executableControls(in: output).isEmpty, "\(arguments): \(output)")
            if arguments.count == 1 { #expect(output.contains(TerminalSafety.shownPayload), "\(arguments): \(output)") }
        }
    }

    @Test func checkReadsASignedAudiobookAndLocksATamperedOne() throws {
        let good = try run(["check", "--json", try signedBook()], now: nil)
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        let resources = try #require((good.json as? [String: Any])?["resources"] as? [[String: Any]])
        #expect(resources.count == 2)
        #expect(resources.allSatisfy { $0["ok"] as? Bool == true })

        let bad = try run(["check", try signedBook(tamper: true)], now: nil)
        #expect(bad.status == 3, "\(bad.stdout)\(bad.stderr)")
        #expect(bad.stdout.contains("Signed audiobook (Feedbooks) — restricted"))
        #expect(bad.stdout.contains("The audiobook's signature is invalid"))
        #expect(bad.stdout.contains("FAIL  track.mp3: forbidden"))
        #expect(bad.stdout.contains("ok    ") && bad.stdout.contains("cover.jpg"))
    }

    @Test func checkOnARemoteSignedManifest() throws {
        let manifest = """
            {"metadata": {"title": "Remote", "conformsTo": "https://readium.org/webpub-manifest/profiles/audiobook",
              "http://www.feedbooks.com/audiobooks/rights": {"end": "2100-01-01T00:00:00Z"}},
             "readingOrder": [{"href": "track.mp3", "type": "audio/mpeg", "duration": 1}]}
            """
        let signed = try Self.signer.sign(Data(manifest.utf8), issuer: Self.testIssuer)
        let remote = try TestHTTPServer(routes: [
            TestHTTPRoute("/book/manifest.json", headers: ["Content-Type": "application/audiobook+json"], body: signed),
            TestHTTPRoute("/book/track.mp3", headers: ["Content-Type": "audio/mpeg"], body: Data(repeating: 7, count: 2048)),
        ])
        defer { remote.stop() }
        let result = try run(["check", "--json", remote.url("/book/manifest.json")], now: nil)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let resources = try #require((result.json as? [String: Any])?["resources"] as? [[String: Any]])
        #expect(resources.first?["length"] as? Int == 2048)
    }

    @Test func withoutNetworkCheckEndsPromptly() throws {
        // Every request through a proxy that refuses connections, as when offline.
        let offline = ["http_proxy": "http://127.0.0.1:9", "https_proxy": "http://127.0.0.1:9",
                       "HTTP_PROXY": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9"]
        // The real issuer's keys cannot be fetched: restricted, with the reason.
        let unverifiable = try lectern.run(["check", vector("feedbooks_2.json")], timeout: 60,
                                           environment: offline.merging(["LECTERN_TEST_NOW": "2020-01-01T00:00:00Z"]) { $1 })
        #expect(unverifiable.status == 3, "\(unverifiable.stdout)\(unverifiable.stderr)")
        #expect(unverifiable.stdout.contains("could not be retrieved from https://listen.cantookaudio.com/.well-known/jwks.json"))
        #expect(unverifiable.stdout.components(separatedBy: "forbidden").count - 1 == 41)

        // Keys from this machine, tracks from the unreachable Cantook servers: verified, and
        // each track fails quickly instead of hanging.
        let verified = try run(["check", vector("feedbooks_2.json")], now: "2020-01-01T00:00:00Z",
                               extra: offline.merging(["no_proxy": "127.0.0.1", "NO_PROXY": "127.0.0.1"]) { $1 })
        #expect(verified.status == 1, "\(verified.stdout)\(verified.stderr)")
        #expect(verified.stdout.contains("Protection: Signed audiobook (Feedbooks)\n"))
        #expect(verified.stdout.contains("0 of 41 resources readable"))
    }
}

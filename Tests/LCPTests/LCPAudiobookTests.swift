import Foundation
import LCP
import LibCrypto
import Shared
import Streamer
import Testing
import TestSupport

/// LCP audiobooks with encrypted MP3 tracks: `check`/`info`/`listen` with the passphrase, and
/// seeks in a large encrypted track that decrypt only the blocks they land on.
@Suite struct LCPAudiobookTests {
    let lectern = LecternProcess()
    /// Trust the test PKI, no revocation list.
    let environment = ["LECTERN_LCP_ANCHORS": TestPKI.shared.directory + "/ca/ca.pem", "LECTERN_LCP_CRL_URL": "none",
                       "LECTERN_AUDIO_OUTPUT": "null"]

    func run(_ arguments: [String], timeout: Double = 60) throws -> LecternProcess.Result {
        try lectern.run(arguments, timeout: timeout, environment: environment)
    }

    /// The JSON events `lectern listen --json` printed.
    func events(_ result: LecternProcess.Result) -> [[String: Any]] {
        result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    func sampleAudiobook(_ ext: String = "lcpa") throws -> (path: String, tracks: [AudiobookForge.Track]) {
        let license = try LicenseForge.make(LicenseSpec())
        let tracks = try AudiobookForge.sampleTracks()
        let path = Fixtures.temporaryDirectory("lcp-audiobook") + "/book.\(ext)"
        try AudiobookForge.write(at: path, license: license, tracks: tracks)
        return (path, tracks)
    }

    @Test(arguments: ["lcpa", "lcpau"])
    func checkAndInfoOpenTheAudiobookWithItsPassphrase(_ ext: String) throws {
        let (path, tracks) = try sampleAudiobook(ext)
        let check = try run(["check", "--json", "--passphrase", "open sesame", path])
        #expect(check.status == 0, "\(check.stderr)")
        let report = try #require(check.json as? [String: Any])
        #expect(report["mediaType"] as? String == "application/audiobook+lcp")
        var hashes: [String: String] = [:]
        for resource in report["resources"] as? [[String: Any]] ?? [] {
            if let href = resource["href"] as? String, let hash = resource["sha256"] as? String { hashes[href] = hash }
        }
        for track in tracks {
            #expect(hashes[track.path] == Digest.sha256(track.plaintext).hexString, "\(track.path)")
        }
        #expect((report["protection"] as? [String: Any])?["restricted"] as? Bool == false)

        let info = try run(["info", "--passphrase", "open sesame", path])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("Forged Audiobook"))
        #expect(info.stdout.contains("Guitar, second half"))
    }

    @Test func withoutThePassphraseTheAudiobookIsRestricted() throws {
        let (path, _) = try sampleAudiobook()
        #expect(try run(["check", path]).status == 3)
        let listen = try run(["listen", "--passphrase", "wrong", "--for", "1", path])
        #expect(listen.status == 3)
        #expect(listen.stderr.contains("assphrase"), "\(listen.stderr)")
        #expect(!listen.stdout.contains("position"))
    }

    /// Played to the null output: the decoded duration is the track's, the position moves and
    /// a seek lands past its target.
    @Test func listenPlaysTheEncryptedTracksAndSeeks() throws {
        let (path, tracks) = try sampleAudiobook()
        let result = try run(["listen", "--passphrase", "open sesame", "--json", "--for", "2.5", "--seek", "5",
                              "--seek-after", "1", "--interval", "0.25", path])
        #expect(result.status == 0, "\(result.stderr)")
        let events = events(result)
        let loaded = try #require(events.first { $0["event"] as? String == "loaded" })
        #expect(abs((loaded["duration"] as? Double ?? 0) - tracks[0].duration) < 0.05, "\(loaded)")
        let seek = try #require(events.first { $0["event"] as? String == "seek" })
        let seekIndex = try #require(events.firstIndex { $0["event"] as? String == "seek" })
        let before = events[..<seekIndex].compactMap { $0["event"] as? String == "position" ? $0["time"] as? Double : nil }
        let after = events[seekIndex...].compactMap { $0["event"] as? String == "position" ? $0["time"] as? Double : nil }
        #expect(before.count >= 2 && before.last! > before.first!, "\(before)")
        let target = try #require(seek["to"] as? Double)
        #expect(target >= 5)
        #expect(!after.isEmpty && after.allSatisfy { $0 >= target - 0.1 }, "\(after)")
        #expect(after.last! > after.first!, "\(after)")
        let end = try #require(events.last)
        #expect(end["event"] as? String == "end")
        #expect(end["output"] as? String == "null")
    }

    /// A truncated encrypted track: `listen` stops with the decryption error, exit 1.
    @Test func aTruncatedEncryptedTrackFailsClearly() throws {
        let license = try LicenseForge.make(LicenseSpec())
        let tracks = try AudiobookForge.sampleTracks()
        let path = Fixtures.temporaryDirectory("lcp-audiobook-damaged") + "/book.lcpa"
        try AudiobookForge.write(at: path, license: license, tracks: tracks, damage: { $0.removeLast(7) })
        let result = try run(["listen", "--passphrase", "open sesame", "--json", "--for", "3", path])
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        let error = try #require(events(result).first { $0["event"] as? String == "error" })
        #expect((error["message"] as? String)?.isEmpty == false)
    }

    /// A read in the middle of a 24 MB encrypted track reads (and decrypts) a window around it,
    /// not the track; reading it whole reads it all.
    @Test func aSeekInALargeEncryptedTrackDecryptsOnlyTheBlocksItNeeds() async throws {
        let license = try LicenseForge.make(LicenseSpec())
        let track = try AudiobookForge.longTrack(size: 24 << 20)
        let path = Fixtures.temporaryDirectory("lcp-audiobook-large") + "/long.lcpa"
        try AudiobookForge.write(at: path, license: license, tracks: [track])

        let asset = try AssetRetriever().retrieve(path: path)
        let counting = CountingFetcher(asset.fetcher)
        let lcp = try TestLCP()
        let publication = try await PublicationOpener(contentProtections: [lcp.service.contentProtection()])
            .open(asset: Asset(name: asset.name, location: asset.location, format: asset.format, fetcher: counting),
                  allowUserInteraction: false, credentials: "open sesame")
        defer { publication.close() }
        let resource = publication.get(track.path)
        counting.reset()

        // What a player does: the length, then a read at the seek target.
        #expect(try resource.length.get() == UInt64(track.plaintext.count))
        let offset = 13_000_001
        let data = try resource.read(range: UInt64(offset)..<UInt64(offset + 65_536)).get()
        #expect(data == track.plaintext.subdata(in: offset..<(offset + 65_536)))
        let forSeek = counting.bytesRead(track.path)
        #expect(forSeek > 0)
        #expect(forSeek < 256 << 10, "a seek read \(forSeek) bytes of \(track.plaintext.count)")

        counting.reset()
        #expect(try resource.read().get() == track.plaintext)
        #expect(counting.bytesRead(track.path) >= track.plaintext.count)
    }

    /// The player started in the middle of a large encrypted track reads a small part of it,
    /// and decodes the whole track's duration.
    @Test func listeningFromTheMiddleOfALargeEncryptedTrackReadsLittleOfIt() throws {
        let license = try LicenseForge.make(LicenseSpec())
        let track = try AudiobookForge.longTrack(size: 24 << 20)
        let path = Fixtures.temporaryDirectory("lcp-audiobook-large") + "/long.lcpa"
        try AudiobookForge.write(at: path, license: license, tracks: [track])
        let start = #"{"href":"audio/long.mp3","locations":{"progression":0.5}}"#
        let result = try run(["listen", "--passphrase", "open sesame", "--json", "--for", "1.5", "--start", start, path])
        #expect(result.status == 0, "\(result.stderr)")
        let events = events(result)
        let loaded = try #require(events.first { $0["event"] as? String == "loaded" })
        #expect(abs((loaded["duration"] as? Double ?? 0) - track.duration) < 0.5, "\(loaded) vs \(track.duration)")
        let positions = events.compactMap { $0["event"] as? String == "position" ? $0["time"] as? Double : nil }
        #expect(positions.first.map { abs($0 - track.duration / 2) < 5 } == true, "\(positions)")
        let end = try #require(events.last)
        let bytesRead = try #require(end["bytesRead"] as? Int)
        #expect(bytesRead < track.plaintext.count / 20, "read \(bytesRead) of \(track.plaintext.count)")
    }
    /// A package whose manifest names its tracks by the publisher's URLs (with or without a
    /// `self` link) reads the packaged tracks, offline, instead of going to the network.
    @Test(arguments: [("http://publisher.example/", nil), ("https://cdn.example/books/42/", "https://cdn.example/books/42/manifest.json"),
                      ("https://cdn.example/media/x/", "https://elsewhere.example/manifest.json")] as [(String, String?)])
    func absoluteURLsOfPackagedTracksReadThePackage(prefix: String, selfLink: String?) throws {
        let license = try LicenseForge.make(LicenseSpec())
        let tracks = try AudiobookForge.sampleTracks()
        let path = Fixtures.temporaryDirectory("lcp-audiobook") + "/book.lcpa"
        try AudiobookForge.write(at: path, license: license, tracks: tracks, hrefPrefix: prefix, selfLink: selfLink)
        let check = try run(["check", "--json", "--passphrase", "open sesame", path])
        #expect(check.status == 0, "\(check.stderr)")
        let report = try #require(check.json as? [String: Any])
        var hashes: [String: String] = [:]
        for resource in report["resources"] as? [[String: Any]] ?? [] {
            if let href = resource["href"] as? String, let hash = resource["sha256"] as? String { hashes[href] = hash }
        }
        for track in tracks {
            #expect(hashes[track.path] == Digest.sha256(track.plaintext).hexString, "\(track.path): \(hashes)")
        }
        let info = try run(["info", "--passphrase", "open sesame", path])
        #expect(info.stdout.contains("Guitar, second half"), "the table of contents follows: \(info.stdout)")
    }
}

/// An audiobook opened from a bare `.lcpl`: the package is streamed from the content server
/// with ranged requests, and played.
@Suite struct LCPLAudiobookTests {
    @Test func aBareLicenseOfAnAudiobookPlays() throws {
        let server = try StatusServer()
        let tracks = try AudiobookForge.sampleTracks().map {
            ForgedResource($0.path, $0.plaintext, mediaType: "audio/mpeg")
        }
        let served = try ServedPublication.make(on: server, name: "audiobook", kind: .lcpa, chapters: tracks)
        let lectern = LecternProcess()
        let result = try lectern.run(["listen", "--passphrase", "open sesame", "--json", "--for", "1.5", served.lcplPath],
                                     timeout: 60, environment: ["LECTERN_LCP_ANCHORS": TestPKI.shared.directory + "/ca/ca.pem",
                                                                "LECTERN_LCP_CRL_URL": "none", "LECTERN_AUDIO_OUTPUT": "null"])
        #expect(result.status == 0, "\(result.stderr)")
        let events = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let loaded = try #require(events.first { $0["event"] as? String == "loaded" })
        #expect(abs((loaded["duration"] as? Double ?? 0) - AudiobookForge.duration(of: tracks[0].plaintext)) < 0.05)
        let positions = events.compactMap { $0["event"] as? String == "position" ? $0["time"] as? Double : nil }
        #expect(positions.count >= 2 && positions.last! > positions.first!, "\(positions)")
        let gets = try server.log().filter { $0.path == URL(string: served.url)!.path && $0.method == "GET" }
        #expect(!gets.isEmpty && gets.allSatisfy { $0.range != nil })
    }

}

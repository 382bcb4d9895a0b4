import Foundation
import LCP
import Shared
import TestSupport

/// LCP audiobooks (`.lcpa`, `.lcpau`) with real MP3 tracks: the three tracks of the ZAB
/// sample, or one long track made of one of them repeated (a valid constant-bitrate stream).
enum AudiobookForge {
    /// A track of the forged audiobook.
    struct Track {
        var path: String
        var title: String
        var plaintext: Data
        /// Declared in the manifest (the constant-bitrate duration).
        var duration: Double
    }

    static let zab = Fixtures.sample("audiobook/swifttoolkit-audiotest.zab")

    /// An MP3 of the ZAB sample, in clear.
    static func sampleMP3(_ name: String) throws -> Data {
        try Shell.run("/usr/bin/unzip", ["-p", zab, "Test Audiobook/\(name)"])
    }

    /// The duration of a tag-less 128 kbit/s MP3 (all the sample's tracks): its size over its bitrate.
    static func duration(of mp3: Data) -> Double { Double(mp3.count) * 8 / 128_000 }

    /// The sample's three tracks under `audio/`.
    static func sampleTracks() throws -> [Track] {
        try [("gtr-jazz.mp3", "Guitar"), ("Latin.mp3", "Latin"), ("vln-lin-cs.mp3", "Violin")].map { name, title in
            let data = try sampleMP3(name)
            return Track(path: "audio/\(name)", title: title, plaintext: data, duration: duration(of: data))
        }
    }

    /// One track of at least `size` bytes: `gtr-jazz.mp3` repeated.
    static func longTrack(size: Int) throws -> Track {
        let unit = try sampleMP3("gtr-jazz.mp3")
        var data = Data(capacity: size + unit.count)
        while data.count < size { data.append(unit) }
        return Track(path: "audio/long.mp3", title: "Long", plaintext: data, duration: duration(of: data))
    }

    /// Writes the audiobook at `path`: tracks encrypted with the license's content key (stored,
    /// as the LCP audiobook note requires), a clear cover, and a table of contents with one
    /// entry per track plus one `#t=` entry in the first.
    /// - Parameters:
    ///   - damage: changes the encrypted bytes of the first track.
    ///   - hrefPrefix: put before each track's path in the manifest (a publisher's URL), while
    ///     the package keeps the track at its path.
    static func write(at path: String, license: ForgedLicense?, contentKey: [UInt8]? = nil, tracks: [Track],
                      title: String = "Forged Audiobook", hrefPrefix: String = "", selfLink: String? = nil,
                      damage: ((inout [UInt8]) -> Void)? = nil) throws {
        let key = contentKey ?? license?.contentKey ?? LicenseForge.randomBytes(32)
        let encrypted = JSONValue.object(JSONObject([
            "scheme": .string(LCPDecryptor.scheme), "profile": .string(LCPProfile.basic),
            "algorithm": .string(LCPAlgorithm.aes256CBC),
        ]))
        let readingOrder = tracks.map { track in
            JSONValue.object(JSONObject([
                "href": .string(hrefPrefix + track.path), "type": .string("audio/mpeg"), "title": .string(track.title),
                "duration": .double(track.duration), "bitrate": .int(128),
                "properties": .object(JSONObject(["encrypted": encrypted])),
            ]))
        }
        var toc = tracks.map { JSONValue.object(JSONObject(["href": .string(hrefPrefix + $0.path), "title": .string($0.title)])) }
        if let first = tracks.first {
            toc.insert(.object(JSONObject(["href": .string(hrefPrefix + first.path + "#t=\(Int(first.duration / 2))"),
                                           "title": .string(first.title + ", second half")])), at: 1)
        }
        var manifest = JSONValue.object(JSONObject([
            "@context": .string("https://readium.org/webpub-manifest/context.jsonld"),
            "metadata": .object(JSONObject([
                "@type": .string("http://schema.org/Audiobook"), "title": .string(title),
                "conformsTo": .string("https://readium.org/webpub-manifest/profiles/audiobook"),
                "author": .string("Lectern Tests"), "duration": .double(tracks.reduce(0) { $0 + $1.duration }),
            ])),
            "readingOrder": .array(readingOrder),
            "resources": .array([.object(JSONObject(["href": .string("cover.png"), "type": .string("image/png"), "rel": .string("cover")]))]),
            "toc": .array(toc),
        ]))
        if let selfLink, case .object(var object) = manifest {
            object["links"] = .array([.object(JSONObject(["rel": .string("self"), "href": .string(selfLink),
                                                          "type": .string("application/audiobook+json")]))])
            manifest = .object(object)
        }
        var entries: [ZipBuilder.Entry] = [
            .init("manifest.json", Data(JSONWriter().bytes(manifest))),
            .init("cover.png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + LicenseForge.randomBytes(200)), compression: .stored),
        ]
        if let license { entries.append(.init("license.lcpl", license.data)) }
        for (index, track) in tracks.enumerated() {
            var bytes = try LicenseForge.encrypt([UInt8](track.plaintext), key: key)
            if index == 0 { damage?(&bytes) }
            entries.append(.init(track.path, Data(bytes), compression: .stored))
        }
        try ZipBuilder.write(entries, to: path)
    }
}

/// Wraps a fetcher and counts the bytes its resources return: what decryption had to read.
final class CountingFetcher: Fetcher, @unchecked Sendable {
    private let fetcher: any Fetcher
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    init(_ fetcher: any Fetcher) { self.fetcher = fetcher }

    var links: [Link] { fetcher.links }

    func get(_ link: Link, parameters: [String: String]) -> any Resource {
        CountingResource(fetcher.get(link, parameters: parameters), owner: self)
    }

    func close() { fetcher.close() }

    /// Bytes read from the resource at `path` so far.
    func bytesRead(_ path: String) -> Int { lock.withLock { counts[path] ?? 0 } }

    func reset() { lock.withLock { counts.removeAll() } }

    fileprivate func record(_ count: Int, for link: Link) {
        lock.withLock { counts[link.path ?? link.href, default: 0] += count }
    }
}

private final class CountingResource: Resource {
    let resource: any Resource
    let owner: CountingFetcher

    init(_ resource: any Resource, owner: CountingFetcher) {
        self.resource = resource
        self.owner = owner
    }

    var link: Link { resource.link }
    var length: ResourceResult<UInt64> { resource.length }

    func read(range: Range<UInt64>?) -> ResourceResult<Data> {
        let result = resource.read(range: range)
        if case .success(let data) = result { owner.record(data.count, for: resource.link) }
        return result
    }

    func close() { resource.close() }
}

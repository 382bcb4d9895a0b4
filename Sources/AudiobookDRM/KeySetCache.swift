import FoundationEssentials
import LibCrypto
import Shared
#if canImport(Glibc)
import Glibc
#endif

/// Key sets downloaded from issuers, kept on disk (`$XDG_CACHE_HOME/lectern/jwks/`, one file
/// per key-set URL, mode 0600) with when they were retrieved and until when they are fresh.
struct KeySetCache: Sendable {
    /// One cached key set.
    struct Entry: Sendable {
        /// The key-set URL.
        var url: String
        /// The response body, as served.
        var body: [UInt8]
        var retrieved: Date
        /// Fresh until then (the response's `Cache-Control: max-age`, clamped).
        var expires: Date
        var etag: String?
    }

    /// The folder; nil keeps nothing (every check downloads).
    let directory: String?

    /// Bodies larger than this are not cached (nor accepted: see ``IssuerKeyStore``).
    static let maxBodySize = 256 << 10

    func path(for url: String) -> String? {
        directory.map { $0 + "/" + Digest.sha256(Array(url.utf8)).hexString + ".json" }
    }

    /// The entry for `url`; nil when there is none or it is damaged.
    func load(_ url: String) -> Entry? {
        guard let path = path(for: url), let data = FileManager.default.contents(atPath: path),
              data.count <= 2 * Self.maxBodySize,
              let json = try? JSONParser.parse(data),
              json["url"]?.string == url,
              let body = json["body"]?.string,
              let retrieved = json["retrieved"]?.double, let expires = json["expires"]?.double
        else { return nil }
        return Entry(url: url, body: Array(body.utf8), retrieved: Date(timeIntervalSince1970: retrieved),
                     expires: Date(timeIntervalSince1970: expires), etag: json["etag"]?.string)
    }

    /// Stores `entry`, replacing the previous one atomically; failures are ignored (the cache
    /// is an optimisation, and a read-only home must not lock books).
    func store(_ entry: Entry) {
        guard let directory, let path = path(for: entry.url), XDGDirectories.ensure(directory),
              let body = String(validating: entry.body, as: UTF8.self) else { return }
        var object = JSONObject()
        object["url"] = .string(entry.url)
        object["retrieved"] = .double(entry.retrieved.timeIntervalSince1970)
        object["expires"] = .double(entry.expires.timeIntervalSince1970)
        object.set("etag", entry.etag.map(JSONValue.string))
        object["body"] = .string(body)
        let data = Data(JSONWriter(style: .pretty).bytes(.object(object)))
        let temporary = path + ".\(getpid()).partial"
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]) else { return }
        if rename(temporary, path) != 0 { _ = unlink(temporary) }
    }
}

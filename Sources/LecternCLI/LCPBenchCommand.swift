import ArgumentParser
import FoundationEssentials
import LCP
import LCPSQLite
import LibCrypto
import Shared
import Streamer
#if canImport(Glibc)
import Glibc
#endif

/// `lectern lcp-bench` (hidden): times LCP operations inside the process, where a whole-process
/// figure would be mostly start-up, and prints them as JSON for `Benchmarks/bench.py`.
///
/// - `decrypt PATH --href H`: reads the resource whole (decryption throughput), then a 64 KB
///   range at its end from a fresh resource, `--repeat` times each.
/// - `passphrases PATH`: stores `--count` user keys in a temporary database — random ones for
///   other licenses and providers, and the right one, oldest of all (the last tried) — and
///   times finding it, then its two parts (reading the candidates, checking them).
struct LCPBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lcp-bench",
        abstract: "Time LCP decryption and passphrase lookup in-process (benchmark aid).",
        shouldDisplay: false
    )

    @Argument(help: "decrypt or passphrases")
    var mode: String

    @Argument(help: "The protected publication.", completion: .file())
    var path: String

    @OptionGroup var credentials: CredentialsOption

    @Option(help: "The resource to decrypt.")
    var href: String?

    @Option(help: "Repetitions.")
    var `repeat` = 5

    @Option(help: "Stored user keys (passphrases mode).")
    var count = 10_000

    func run() async throws {
        switch mode {
        case "decrypt": try await decrypt()
        case "passphrases": try await passphrases()
        default: throw ValidationError("mode must be decrypt or passphrases")
        }
    }

    private static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        var start = timespec(), end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        try body()
        clock_gettime(CLOCK_MONOTONIC, &end)
        return Double(end.tv_sec - start.tv_sec) * 1000 + Double(end.tv_nsec - start.tv_nsec) / 1_000_000
    }

    private func decrypt() async throws {
        let opened = try await PublicationLoader().open(path, credentials: credentials.credentials)
        let publication = opened.publication
        defer { publication.close() }
        guard !publication.isRestricted, let target = href ?? publication.readingOrder.first?.href else {
            throw ValidationError("the publication is locked or empty")
        }
        var wholeTimes: [Double] = [], rangeTimes: [Double] = []
        var bytes = 0
        var digest = ""
        for _ in 0..<max(self.repeat, 1) {
            let resource = publication.get(target)
            var data = Data()
            wholeTimes.append(try Self.milliseconds { data = try resource.read().get() })
            bytes = data.count
            digest = Digest.sha256(data).hexString
            resource.close()
        }
        for _ in 0..<max(self.repeat, 1) {
            let resource = publication.get(target)
            let size = try resource.length.get()
            let range = (size >= 65_536 ? size - 65_536 : 0)..<size
            var data = Data()
            rangeTimes.append(try Self.milliseconds { data = try resource.read(range: range).get() })
            resource.close()
            guard data.count == range.count else { throw ValidationError("short range read") }
        }
        Output.json(.object(JSONObject([
            "bytes": .int(bytes), "sha256": .string(digest),
            "decryptMs": .array(wholeTimes.map(JSONValue.double)), "rangeMs": .array(rangeTimes.map(JSONValue.double)),
        ])))
    }

    private func passphrases() async throws {
        guard let passphrase = credentials.credentials else { throw ValidationError("--passphrase is required") }
        let asset = try AssetRetriever().retrieve(path: path)
        defer { asset.fetcher.close() }
        let service = try LCPSetup.service.get()
        let license = try LicenseDocument(data: try service.licenseContainer(for: asset).read())
        let directory = "/tmp/lectern-lcp-bench-\(getpid())"
        mkdir(directory, 0o700)
        defer {
            for suffix in ["", "-wal", "-shm"] { unlink(directory + "/library.sqlite" + suffix) }
            rmdir(directory)
        }
        let store = try LCPSQLiteStore(path: directory + "/library.sqlite")
        let repository = LCPSQLitePassphraseRepository(store: store)
        let now = Date()
        var entries: [LCPStoredPassphrase] = (0..<max(count - 1, 0)).map { index in
            LCPStoredPassphrase(hashedPassphrase: secureRandomBytes(32).hexString, licenseID: "other-\(index)",
                                provider: "https://provider-\(index % 50).example", userID: nil,
                                lastUsedAt: now.addingTimeInterval(-Double(index)))
        }
        // The right key, stored for another license and provider, and the oldest: tried last.
        entries.append(LCPStoredPassphrase(hashedPassphrase: BasicProfileLCPClient.userKey(passphrase: passphrase),
                                           licenseID: "elsewhere", provider: "https://elsewhere.example", userID: nil,
                                           lastUsedAt: now.addingTimeInterval(-Double(count))))
        try repository.addPassphrases(entries)
        // Its two parts first (finding the key marks it used, which moves it first): reading
        // the candidates, checking them.
        var candidates: [String] = []
        let queryMs = try Self.milliseconds {
            candidates = try repository.passphrases(licenseID: license.id)
                + repository.passphrases(provider: license.provider, userID: license.user.id)
                + repository.allPassphrases(limit: service.maxStoredPassphrases)
        }
        let checkMs = Self.milliseconds {
            _ = service.client.findOneValidPassphrase(jsonLicense: license.text, hashedPassphrases: candidates)
        }
        let lookup = LCPService(client: service.client, licenseRepository: nil, passphraseRepository: repository)
        var found: String?
        var start = timespec(), end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        found = await lookup.storedPassphrase(for: license)
        clock_gettime(CLOCK_MONOTONIC, &end)
        let elapsed = Double(end.tv_sec - start.tv_sec) * 1000 + Double(end.tv_nsec - start.tv_nsec) / 1_000_000
        Output.json(.object(JSONObject([
            "stored": .int(entries.count), "found": .bool(found != nil), "lookupMs": .double(elapsed),
            "queryMs": .double(queryMs), "checkMs": .double(checkMs),
        ])))
        if found == nil { throw ExitStatus.someFailed }
    }
}

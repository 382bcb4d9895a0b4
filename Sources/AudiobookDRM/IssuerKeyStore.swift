import FoundationEssentials
import Shared

/// Finds the key set that verifies a signature: the cached one while it is fresh, a download
/// when it is missing or stale, and a second download when the cached keys do not verify
/// (the issuer rotated its keys). Without network, a stale cached set is still used.
struct IssuerKeyStore: Sendable {
    let cache: KeySetCache
    let httpClient: any HTTPClient
    let now: @Sendable () -> Date
    /// Seconds allowed for a key-set download.
    let timeout: Double

    /// A cached set that does not verify is downloaded again only if it is older than this,
    /// so that a manifest with a bad signature does not hit the issuer at every opening.
    static let rotationGrace: Double = 5 * 60
    /// Freshness when the response gives no `max-age`, and the bounds a `max-age` is clamped to.
    static let defaultLifetime: Double = 24 * 3600
    static let lifetimeRange: ClosedRange<Double> = 3600...(7 * 24 * 3600)

    /// Where the verifying keys came from.
    enum Source: Sendable, Equatable {
        /// A cached set that was still fresh.
        case cache
        /// A set downloaded for this check.
        case download
        /// A cached set past its freshness, used because the download failed.
        case staleCache
    }

    /// Checks `accepts` (does a key of this set verify the signature?) with the issuer's keys.
    func verify(issuer: String, url: String, _ accepts: (JSONWebKeySet) -> Bool) async -> Result<Source, AudiobookDRMError> {
        guard Self.isAcceptable(url) else {
            return .failure(.keysUnavailable(issuer: issuer, url: url, reason: "key sets are only fetched over HTTPS"))
        }
        let cached = cache.load(url)
        let cachedSet = cached.flatMap { try? JSONWebKeySet(data: $0.body) }
        let time = now()

        if let cached, let cachedSet, time < cached.expires {
            if accepts(cachedSet) { return .success(.cache) }
            guard time.timeIntervalSince(cached.retrieved) > Self.rotationGrace else {
                return .failure(.signatureInvalid(issuer: issuer))
            }
            // Perhaps the issuer rotated its keys since: look once more.
            switch await download(url, previous: cached) {
            case .success(let entry):
                guard let fresh = try? JSONWebKeySet(data: entry.body) else { return .failure(.signatureInvalid(issuer: issuer)) }
                cache.store(entry)
                return accepts(fresh) ? .success(.download) : .failure(.signatureInvalid(issuer: issuer))
            case .failure:
                return .failure(.signatureInvalid(issuer: issuer))
            }
        }

        switch await download(url, previous: cachedSet == nil ? nil : cached) {
        case .success(let entry):
            let set: JSONWebKeySet
            do {
                set = try JSONWebKeySet(data: entry.body)
            } catch {
                // A broken publication of the keys: keep using the previous ones if there are any.
                if let cachedSet { return accepts(cachedSet) ? .success(.staleCache) : .failure(.signatureInvalid(issuer: issuer)) }
                return .failure(.keysUnparseable(issuer: issuer, url: url, reason: error.reason))
            }
            cache.store(entry)
            return accepts(set) ? .success(.download) : .failure(.signatureInvalid(issuer: issuer))
        case .failure(let reason):
            if let cachedSet { return accepts(cachedSet) ? .success(.staleCache) : .failure(.signatureInvalid(issuer: issuer)) }
            return .failure(.keysUnavailable(issuer: issuer, url: url, reason: reason.text))
        }
    }

    /// A failed download, as text for messages.
    struct DownloadFailure: Error {
        let text: String
    }

    /// GETs the key set (conditionally when a previous copy has an ETag); a `304 Not Modified`
    /// gives the previous body a new lifetime.
    private func download(_ url: String, previous: KeySetCache.Entry?) async -> Result<KeySetCache.Entry, DownloadFailure> {
        var headers = ["Accept": "application/jwk-set+json, application/json"]
        if let etag = previous?.etag { headers["If-None-Match"] = etag }
        let request = HTTPRequest(url: url, headers: headers, timeout: timeout, maxBodySize: KeySetCache.maxBodySize)
        switch await httpClient.send(request) {
        case .failure(let error):
            return .failure(DownloadFailure(text: error.description))
        case .success(let response):
            let retrieved = now()
            let expires = retrieved.addingTimeInterval(Self.lifetime(cacheControl: response.headers["cache-control"]))
            if response.statusCode == 304, let previous {
                return .success(KeySetCache.Entry(url: url, body: previous.body, retrieved: retrieved, expires: expires,
                                                  etag: response.headers["etag"] ?? previous.etag))
            }
            guard response.isSuccess else { return .failure(DownloadFailure(text: "HTTP \(response.statusCode)")) }
            return .success(KeySetCache.Entry(url: url, body: [UInt8](response.body), retrieved: retrieved, expires: expires,
                                              etag: response.headers["etag"]))
        }
    }

    /// Seconds a response stays fresh: its `max-age` (`no-store`/`no-cache` count as zero),
    /// else a day, clamped to an hour … a week.
    static func lifetime(cacheControl: String?) -> Double {
        var seconds = defaultLifetime
        for directive in (cacheControl ?? "").split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmed.lowercased() }
            switch parts[0] {
            case "max-age" where parts.count == 2:
                if let value = Double(parts[1].trimmingQuotes), value >= 0 { seconds = value }
            case "no-store", "no-cache":
                seconds = 0
            default:
                break
            }
        }
        return min(max(seconds, lifetimeRange.lowerBound), lifetimeRange.upperBound)
    }

    /// HTTPS, or HTTP to this machine (test servers).
    static func isAcceptable(_ url: String) -> Bool {
        switch Href.scheme(of: url)?.lowercased() {
        case "https": return true
        case "http": return isLoopback(url)
        default: return false
        }
    }

    private static func isLoopback(_ url: String) -> Bool {
        var authority = Substring(url.drop { $0 != ":" }.dropFirst(3))
        authority = authority.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let host: Substring
        if authority.hasPrefix("[") {
            host = authority.prefix { $0 != "]" }.dropFirst()
        } else {
            host = authority.prefix { $0 != ":" }
        }
        let lowered = host.lowercased()
        if lowered == "localhost" || lowered == "::1" { return true }
        // 127.0.0.0/8, written as a dotted quad (not a name such as `127.example.com`).
        let octets = lowered.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}

extension String {
    /// Without surrounding double quotes.
    fileprivate var trimmingQuotes: String {
        count >= 2 && hasPrefix("\"") && hasSuffix("\"") ? String(dropFirst().dropLast()) : self
    }
}

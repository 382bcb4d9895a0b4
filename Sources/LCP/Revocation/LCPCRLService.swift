import Dispatch
import FoundationEssentials
import LibCrypto
import Logging
import Shared
import Synchronization

/// The certificate revocation list of the LCP provider CA, downloaded from a configurable URL,
/// checked, cached with its dates, and refreshed in the background (lcp.md §8).
///
/// - A download is cached only when it is a real X.509 CRL (DER, or PEM), signed by one of
///   ``issuers``, not issued in the future (a few minutes of clock skew allowed) and not
///   older than the cached one. A captive portal's HTML page, an error page or garbage is
///   refused, never cached (readium/kotlin-toolkit#832).
/// - ``crl(for:)`` never waits on the network: it answers from the cache (a stale CRL is still
///   used), and starts a refresh when the cache is older than ``maxAge``, past its
///   `nextUpdate`, or empty. With nothing cached, licenses open without a revocation check,
///   and ``revocationStatus(for:)`` says so.
/// - A failed download (or one cut short by the process ending) is not retried before
///   ``retryInterval``, so an unreachable distribution point costs one attempt, not one per
///   opening.
public final class LCPCRLService: LCPCRLProvider {
    /// EDRLab's production provider CRL (the basic-profile test CA publishes none).
    public static let defaultURL = "http://crl.edrlab.telesec.de/rl/EDRLab_CA.crl"

    public let url: String
    /// The CAs a CRL must be signed by (the trust anchors).
    public let issuers: [X509Certificate]
    public let repository: (any LCPCRLRepository)?
    public let httpClient: any HTTPClient
    /// Seconds allowed for the download (5–8 s: it runs in the background anyway).
    public let timeout: Double
    /// A cached CRL older than this is refreshed (7 days).
    public let maxAge: Double
    /// How long after a failed download the next attempt waits.
    public let retryInterval: Double
    /// How far in the future a CRL's `thisUpdate` may be (clock skew).
    public let allowedClockSkew: Double
    private let now: @Sendable () -> Date
    private let state = Mutex<(refresh: Task<Void, Never>?, cached: LCPCachedCRL?, failedAt: Date?)>((nil, nil, nil))

    public init(url: String = LCPCRLService.defaultURL, issuers: [X509Certificate], repository: (any LCPCRLRepository)?,
                httpClient: any HTTPClient = CurlHTTPClient(), timeout: Double = 8, maxAge: Double = 7 * 86_400,
                retryInterval: Double = 3600, allowedClockSkew: Double = 300, now: @escaping @Sendable () -> Date = { Date() }) {
        self.url = url
        self.issuers = issuers
        self.repository = repository
        self.httpClient = httpClient
        self.timeout = timeout
        self.maxAge = maxAge
        self.retryInterval = retryInterval
        self.allowedClockSkew = allowedClockSkew
        self.now = now
    }

    /// Where the fallbacks are told (`LECTERN_LOG`).
    static let log = Diagnostics.logger("lectern.lcp.crl")

    // MARK: - LCPCRLProvider

    public func crl(for license: LicenseDocument) async -> String? {
        let cached = cachedCRL()
        if needsRefresh(cached) { startRefresh() }
        guard let cached else {
            Self.log.notice("no revocation list cached yet (\(Diagnostics.redacted(url))): the provider certificate is not checked this time")
            return nil
        }
        guard let crl = try? X509CRL(der: cached.der) else {
            Self.log.warning("the cached revocation list does not parse: the provider certificate is not checked this time")
            return nil
        }
        return crl.pem
    }

    public func revocationStatus(for license: LicenseDocument) async -> LCPRevocationStatus {
        guard let cached = cachedCRL() else { return .unavailable }
        return .checked(thisUpdate: cached.thisUpdate, isStale: isStale(cached))
    }

    // MARK: - Refreshing

    /// Waits for the refresh in progress, if any, at most `seconds` (a short-lived process
    /// calls it before exiting, so that a quick download is not lost).
    public func waitForRefresh(atMost seconds: Double) async {
        guard let task = state.withLock({ $0.refresh }) else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await task.value }
            group.addTask { try? await Task.sleep(nanoseconds: UInt64(max(seconds, 0) * 1_000_000_000)) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Starts a background refresh unless one is running.
    public func startRefresh() {
        state.withLock { state in
            guard state.refresh == nil else { return }
            state.refresh = Task.detached { [self] in
                _ = await self.refresh()
                self.state.withLock { $0.refresh = nil }
            }
        }
    }

    /// Downloads, checks and caches the CRL now. The download waits on the HTTP client's
    /// thread; the SQLite writes and the check of the list (parsing up to 16 MB, verifying its
    /// signature) go through ``Blocking``, never on the cooperative pool.
    @discardableResult
    public func refresh() async -> Result<LCPCachedCRL, LCPError> {
        // Counted as a failure until it succeeds: a process that exits during the download
        // (a command that is done) must not make the next one try again at once.
        let url = url, started = now()
        await Blocking.run {
            self.record("recording the revocation list download") { repository throws(LCPError) in
                try repository.recordFailedAttempt(url: url, at: started, reason: "the download did not finish")
            }
        }
        let request = HTTPRequest(url: url, headers: ["Accept": "application/pkix-crl, application/x-pkcs7-crl, */*"],
                                  timeout: timeout, maxBodySize: 16 << 20)
        let answer = await httpClient.send(request)
        return await Blocking.run { self.conclude(answer) }
    }

    /// Checks and caches a download's answer, or records why there is none.
    private func conclude(_ answer: Result<HTTPResponse, HTTPError>) -> Result<LCPCachedCRL, LCPError> {
        let result: Result<LCPCachedCRL, LCPError>
        switch answer {
        case .success(let response) where response.isSuccess:
            result = check(response.body)
        case .success(let response):
            result = .failure(.network("HTTP \(response.statusCode) from \(url)"))
        case .failure(let error):
            result = .failure(.network(error.description))
        }
        switch result {
        case .success(let crl):
            // Kept in memory even when the cache write fails: this process still uses it.
            record("caching the revocation list") { repository throws(LCPError) in try repository.storeCRL(crl) }
            state.withLock { $0.cached = crl; $0.failedAt = nil }
        case .failure(let error):
            let date = now()
            Self.log.notice("revocation list \(Diagnostics.redacted(url)) not refreshed (\(error)); the cached copy, if any, is used")
            record("recording the failed revocation list download") { repository throws(LCPError) in
                try repository.recordFailedAttempt(url: url, at: date, reason: error.description)
            }
            state.withLock { $0.failedAt = date }
        }
        return result
    }

    /// A downloaded body as a cacheable CRL, or why it is not one.
    func check(_ body: Data) -> Result<LCPCachedCRL, LCPError> {
        let head = body.prefix(256).drop(while: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF })
        if head.first == UInt8(ascii: "<") {
            return .failure(.invalidCRL("an HTML or XML page instead of a certificate revocation list (a captive portal?)"))
        }
        let crl: X509CRL
        do {
            crl = try X509CRL(pemOrDER: body)
        } catch {
            return .failure(.invalidCRL("not an X.509 certificate revocation list"))
        }
        guard issuers.contains(where: { crl.isIssued(by: $0) }) else {
            return .failure(.invalidCRL("not signed by a known certificate authority (issuer \(crl.issuer))"))
        }
        guard let thisUpdate = crl.thisUpdate.map({ Date(timeIntervalSince1970: Double($0)) }) else {
            return .failure(.invalidCRL("it has no issue date"))
        }
        guard thisUpdate.timeIntervalSince(now()) <= allowedClockSkew else {
            return .failure(.invalidCRL("it claims to be issued in the future (\(RFC3339Date.display(thisUpdate)))"))
        }
        if let cached = cachedCRL(), let cachedDate = cached.thisUpdate, thisUpdate < cachedDate {
            return .failure(.invalidCRL("it is older than the cached one (\(RFC3339Date.display(thisUpdate)))"))
        }
        return .success(LCPCachedCRL(url: url, der: Data(crl.der), thisUpdate: thisUpdate,
                                     nextUpdate: crl.nextUpdate.map { Date(timeIntervalSince1970: Double($0)) },
                                     retrievedAt: now()))
    }

    // MARK: - Cache

    private func cachedCRL() -> LCPCachedCRL? {
        if let cached = state.withLock({ $0.cached }) { return cached }
        guard let repository,
              let stored = Self.log.attempt("reading the cached revocation list", { () throws(LCPError) in
                  try repository.crl(url: url) }) ?? nil else { return nil }
        state.withLock { $0.cached = stored }
        return stored
    }

    /// `body` on the repository; a failure is logged: the cache only saves downloads.
    @discardableResult
    private func record<T>(_ what: String, _ body: (any LCPCRLRepository) throws(LCPError) -> T) -> T? {
        guard let repository else { return nil }
        return Self.log.attempt(what) { () throws(LCPError) in try body(repository) }
    }

    private func isStale(_ cached: LCPCachedCRL) -> Bool {
        let date = now()
        if date.timeIntervalSince(cached.retrievedAt) > maxAge { return true }
        if let next = cached.nextUpdate, date > next { return true }
        return false
    }

    private func needsRefresh(_ cached: LCPCachedCRL?) -> Bool {
        if let cached, !isStale(cached) { return false }
        let failedAt = state.withLock { $0.failedAt } ?? record("reading the last revocation list download") {
            repository throws(LCPError) in try repository.lastFailedAttempt(url: url)
        } ?? nil
        if let failedAt, now().timeIntervalSince(failedAt) < retryInterval { return false }
        return true
    }
}

import FoundationEssentials
import Shared

/// The entry point of the LCP module: everything a license needs (the client, the
/// repositories, the network, the trust settings) and the content protection to give to the
/// publication opener.
public final class LCPService: Sendable {
    public let client: any LCPClient
    public let licenses: (any LCPLicenseRepository)?
    public let passphrases: (any LCPPassphraseRepository)?
    public let httpClient: any HTTPClient
    public let crlProvider: (any LCPCRLProvider)?
    /// The name sent when registering this device (≤ 255 bytes; no host name by default).
    public let deviceName: String
    /// Seconds allowed for each License Status exchange while opening (5 s by default).
    public let statusTimeout: Double
    /// How many stored user keys of other licenses are tried before prompting.
    public let maxStoredPassphrases: Int
    /// Seconds allowed for the License Status exchanges a person asks for (register, renew,
    /// return): longer than while opening, since someone is waiting for the answer.
    public let interactionTimeout: Double
    /// Seconds allowed for each request while streaming a publication from its server.
    public let streamingTimeout: Double
    /// Seconds allowed for a whole publication download.
    public let downloadTimeout: Double
    /// The largest publication held in memory when its server cannot send ranges.
    public let maxInMemoryPublicationSize: Int
    /// Recognises the packages downloaded or streamed (servers mislabel them).
    public let sniffer: FormatSniffer
    let now: @Sendable () -> Date

    /// - Parameters:
    ///   - client: the profile implementation; the basic profile on OpenSSL by default, with
    ///     the trust settings given to it.
    ///   - licenseRepository: where licenses, rights counters and registrations are kept
    ///     (`LCPSQLiteLicenseRepository`); without one, rights cannot be consumed.
    ///   - passphraseRepository: where user keys are kept (`LCPSQLitePassphraseRepository`).
    ///   - crlProvider: the revocation list to check provider certificates against.
    ///   - now: the clock (tests move it).
    public init(client: any LCPClient = BasicProfileLCPClient(),
                licenseRepository: (any LCPLicenseRepository)?,
                passphraseRepository: (any LCPPassphraseRepository)?,
                httpClient: any HTTPClient = CurlHTTPClient(),
                crlProvider: (any LCPCRLProvider)? = nil,
                deviceName: String = "Lectern (Linux)",
                statusTimeout: Double = 5,
                maxStoredPassphrases: Int = 10_000,
                interactionTimeout: Double = 15,
                streamingTimeout: Double = 30,
                downloadTimeout: Double = 6 * 3600,
                maxInMemoryPublicationSize: Int = 256 << 20,
                sniffer: FormatSniffer = FormatSniffer(),
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.client = client
        licenses = licenseRepository
        passphrases = passphraseRepository
        self.httpClient = httpClient
        self.crlProvider = crlProvider
        self.deviceName = String(deviceName.utf8.prefix(255)) ?? "Lectern"
        self.statusTimeout = statusTimeout
        self.maxStoredPassphrases = maxStoredPassphrases
        self.interactionTimeout = interactionTimeout
        self.streamingTimeout = streamingTimeout
        self.downloadTimeout = downloadTimeout
        self.maxInMemoryPublicationSize = maxInMemoryPublicationSize
        self.sniffer = sniffer
        self.now = now
    }

    /// A service with the basic-profile client trusting `trust`.
    public convenience init(trust: LCPTrustSettings, licenseRepository: (any LCPLicenseRepository)?,
                            passphraseRepository: (any LCPPassphraseRepository)?,
                            httpClient: any HTTPClient = CurlHTTPClient(), crlProvider: (any LCPCRLProvider)? = nil) {
        self.init(client: BasicProfileLCPClient(trust: trust), licenseRepository: licenseRepository,
                  passphraseRepository: passphraseRepository, httpClient: httpClient, crlProvider: crlProvider)
    }

    /// The content protection to give to `PublicationOpener`.
    ///
    /// - Parameter authentication: how to ask for passphrases; when nil, the opener's
    ///   `onAskCredentials` callback is used.
    public func contentProtection(with authentication: (any LCPAuthenticating)? = nil) -> any ContentProtection {
        LCPContentProtection(service: self, authentication: authentication)
    }

    /// Whether an asset is protected with Readium LCP (checked on its content when sniffed);
    /// a bare license counts.
    public func isLCPProtected(_ asset: Asset) -> Bool {
        asset.format.isLCPProtected || asset.format.kind == .lcpl
    }

    /// Whether the file at `path` is an LCP-protected package or a bare license.
    public func isLCPProtected(path: String) -> Bool {
        guard let asset = try? AssetRetriever(sniffer: sniffer).retrieve(path: path) else { return false }
        defer { asset.fetcher.close() }
        return isLCPProtected(asset)
    }

    /// Where the license of `asset` lives: the bare license file itself, or inside the
    /// package (written back by rewriting it).
    public func licenseContainer(for asset: Asset) -> any LicenseContainer {
        guard asset.format.kind == .lcpl else { return PackageLicenseContainer(asset: asset, fetcher: asset.fetcher) }
        if let path = LCPContentProtection.absolutePath(asset.location) { return FileLicenseContainer(path: path) }
        return FetchedLicenseContainer(url: asset.location, fetcher: asset.fetcher)
    }

    /// Validates the license of the publication or bare license at `path`, without opening
    /// the publication (for the license commands): see ``retrieveLicense(from:credentials:authentication:allowUserInteraction:sender:publicationPath:)``.
    public func retrieveLicense(path: String, credentials: String? = nil, authentication: (any LCPAuthenticating)?,
                                allowUserInteraction: Bool, sender: (any Sendable)? = nil) async -> Result<LCPLicense, LCPError> {
        let asset: Asset
        do {
            asset = try AssetRetriever(sniffer: sniffer).retrieve(path: path)
        } catch {
            return .failure(.licenseContainer(error.userMessage))
        }
        defer { asset.fetcher.close() }
        guard isLCPProtected(asset) else { return .failure(.notLCPProtected(Format.describe(asset.format))) }
        return await retrieveLicense(from: licenseContainer(for: asset), credentials: credentials,
                                     authentication: authentication, allowUserInteraction: allowUserInteraction,
                                     sender: sender, publicationPath: LCPContentProtection.absolutePath(path))
    }

    /// The stored user key that opens `license`, looked for in the reference order (this
    /// license's, then the same provider and user's, then every stored key, most recently
    /// used first), checked by key check only; nil when none does. Nobody is asked.
    public func storedPassphrase(for license: LicenseDocument) async -> String? {
        let lookup = PassphraseLookup(client: client, repository: passphrases, maxStoredCandidates: maxStoredPassphrases)
        if case .found(let key) = await lookup.find(for: license, credentials: nil, authentication: nil,
                                                    allowUserInteraction: false, sender: nil) {
            return key
        }
        return nil
    }

    /// Opens the publication a bare license points to, streamed from its server (ranges)
    /// when the server allows it, else downloaded into memory (up to
    /// ``maxInMemoryPublicationSize``).
    func openRemotePublication(_ license: LicenseDocument) throws(LCPError) -> RemotePublication.Opened {
        try RemotePublication(httpClient: httpClient, timeout: streamingTimeout, maxInMemorySize: maxInMemoryPublicationSize,
                              sniffer: sniffer).open(license.publicationLink)
    }

    /// Validates the license of a publication: a ``LCPLicense`` when it could be read (it may
    /// still be locked: see ``LCPLicense/error``), an error when it is unusable (missing,
    /// invalid, production profile, integrity failure).
    ///
    /// - Parameters:
    ///   - credentials: a passphrase (or its SHA-256 in hexadecimal) tried before anything else.
    ///   - publicationPath: the package on disk, remembered with the license.
    public func retrieveLicense(from container: any LicenseContainer, credentials: String? = nil,
                                authentication: (any LCPAuthenticating)?, allowUserInteraction: Bool,
                                sender: (any Sendable)? = nil, publicationPath: String? = nil) async -> Result<LCPLicense, LCPError> {
        let data: Data
        do {
            data = try container.read()
        } catch {
            return .failure(error)
        }
        let validation = LicenseValidation(environment: LicenseValidation.Environment(
            client: client, licenses: licenses,
            passphrases: PassphraseLookup(client: client, repository: passphrases, maxStoredCandidates: maxStoredPassphrases),
            statusClient: LicenseStatusClient(httpClient: httpClient, timeout: statusTimeout),
            crlProvider: crlProvider, container: container, publicationPath: publicationPath, deviceName: deviceName,
            credentials: credentials, authentication: authentication, allowUserInteraction: allowUserInteraction,
            sender: sender, now: now))
        switch await validation.validate(licenseData: data) {
        case .success(let validated):
            let license = LCPLicense(validated: validated, repository: licenses, client: client, validation: validation,
                                     interactions: LicenseStatusClient(httpClient: httpClient, timeout: interactionTimeout),
                                     deviceName: deviceName, now: now)
            if case .success = validated.context {
                license.setRevocationStatus(await crlProvider?.revocationStatus(for: validated.license))
            }
            return .success(license)
        case .failure(let error):
            return .failure(error)
        }
    }
}

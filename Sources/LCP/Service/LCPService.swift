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
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.client = client
        licenses = licenseRepository
        passphrases = passphraseRepository
        self.httpClient = httpClient
        self.crlProvider = crlProvider
        self.deviceName = String(deviceName.utf8.prefix(255)) ?? "Lectern"
        self.statusTimeout = statusTimeout
        self.maxStoredPassphrases = maxStoredPassphrases
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

    /// Whether an asset is protected with Readium LCP (checked on its content when sniffed).
    public func isLCPProtected(_ asset: Asset) -> Bool {
        asset.format.isLCPProtected
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
        return await validation.validate(licenseData: data).map { validated in
            LCPLicense(validated: validated, repository: licenses, client: client, validation: validation, now: now)
        }
    }
}

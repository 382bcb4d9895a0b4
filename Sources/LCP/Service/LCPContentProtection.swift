import Dispatch
import FoundationEssentials
import Shared

/// Readium LCP as a content protection of the publication opener: claims the assets the
/// sniffer found LCP-protected, validates their license (asking for the passphrase when
/// allowed), and gives the parser a fetcher that decrypts.
///
/// A license that cannot be used does not stop the opening: the publication opens restricted
/// (metadata, table of contents and cover are in clear), with the reason as its protection
/// error. Cancelling the passphrase prompt leaves it locked without calling it an error.
struct LCPContentProtection: ContentProtection {
    let service: LCPService
    let authentication: (any LCPAuthenticating)?

    func open(asset: Asset, fetcher: any Fetcher, credentials: String?, allowUserInteraction: Bool,
              sender: (any Sendable)?, onAskCredentials: OnAskCredentials?) async throws(OpeningError) -> ProtectedAsset? {
        guard asset.format.isLCPProtected || asset.format.kind == .lcpl else { return nil }

        let authentication = self.authentication
            ?? onAskCredentials.map { LCPCredentialsAuthentication(title: asset.name, onAskCredentials: $0) }
        let container = service.licenseContainer(for: Asset(name: asset.name, location: asset.location, format: asset.format,
                                                            fetcher: fetcher))
        let result = await service.retrieveLicense(
            from: container, credentials: credentials, authentication: authentication,
            allowUserInteraction: allowUserInteraction, sender: sender,
            publicationPath: Self.absolutePath(asset.location))
        if asset.format.kind == .lcpl {
            return try await openStreamed(licenseAsset: asset, result: result)
        }

        let license: LCPLicense?
        let failure: LCPError?
        switch result {
        case .success(let opened):
            license = opened
            failure = nil
        case .failure(let error):
            failure = error
            license = Self.unusableLicense(container, error: error, service: service)
        }
        return protectedAsset(asset, fetcher: fetcher, license: license, failure: failure)
    }

    /// The asset with a decrypting fetcher and the LCP content protection service.
    private func protectedAsset(_ asset: Asset, fetcher: any Fetcher, license: LCPLicense?, failure: LCPError?) -> ProtectedAsset {
        let cache = DecryptedResourceCache()
        let decryptor: LCPDecryptor
        if let license, case .success(let context) = license.validatedContext {
            decryptor = LCPDecryptor(client: service.client, context: context, cache: cache)
        } else {
            decryptor = LCPDecryptor(lockedBy: failure ?? license?.error ?? .missingPassphrase)
        }
        let decrypting = TransformingFetcher(fetcher, transformer: decryptor.transformer)
        return ProtectedAsset(asset: asset, fetcher: decrypting) { builder in
            builder.servicesBuilder.set(PublicationServicesBuilder.contentProtection) { _ in
                LCPContentProtectionService(license: license, error: failure, cache: cache)
            }
        }
    }

    /// A bare license: its publication is opened on its server (streamed with ranges when
    /// possible) and parsed like a local package, with the license from the `.lcpl`. A
    /// license that cannot be used at all (invalid, forged, production profile) stops here,
    /// before any download.
    private func openStreamed(licenseAsset asset: Asset, result: Result<LCPLicense, LCPError>) async throws(OpeningError) -> ProtectedAsset {
        let license: LCPLicense
        switch result {
        case .success(let opened): license = opened
        case .failure(let error): throw .forbidden(error)
        }
        let service = self.service
        let document = license.license
        let opened: RemotePublication.Opened
        do {
            opened = try await Blocking.attempt { () throws(LCPError) in try service.openRemotePublication(document) }
        } catch {
            throw .unavailable(error)
        }
        let name = license.license.publicationLink.title.map { _ in LCPService.suggestedFilename(license: document, format: opened.format) }
            ?? asset.name
        let remote = Asset(name: name, location: opened.location, format: opened.format, fetcher: ArchiveFetcher(archive: opened.archive))
        return protectedAsset(remote, fetcher: remote.fetcher, license: license, failure: nil)
    }

    /// The package's absolute path, remembered with the license; nil for a URL.
    static func absolutePath(_ location: String) -> String? {
        if Href.isAbsoluteURL(location) { return nil }
        if location.hasPrefix("/") { return location }
        return FileManager.default.currentDirectoryPath + "/" + location
    }

    /// A license whose profile Lectern cannot open is still worth showing (provider, dates,
    /// rights, hint): the person learns what it is (lcp.md §9). Other failures (a bad signature,
    /// an untrusted certificate) leave nothing trustworthy to show.
    private static func unusableLicense(_ container: any LicenseContainer, error: LCPError, service: LCPService) -> LCPLicense? {
        guard case .profileNotSupported = error, let data = try? container.read(),
              let document = try? LicenseDocument(data: data) else { return nil }
        // Its status can still be read and acted on (renew, return: lcp.md §9).
        return LCPLicense(validated: ValidatedLicense(license: document, status: nil, context: .failure(error)),
                          repository: service.licenses, client: service.client, validation: nil,
                          interactions: LicenseStatusClient(httpClient: service.httpClient, timeout: service.interactionTimeout),
                          deviceName: service.deviceName, now: service.now)
    }
}

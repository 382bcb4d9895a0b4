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
        // A bare license is opened by streaming its publication, which is not done here.
        guard asset.format.isLCPProtected, asset.format.kind != .lcpl else { return nil }

        let authentication = self.authentication
            ?? onAskCredentials.map { LCPCredentialsAuthentication(title: asset.name, onAskCredentials: $0) }
        let container = PackageLicenseContainer(asset: asset, fetcher: fetcher)
        let result = await service.retrieveLicense(
            from: container, credentials: credentials, authentication: authentication,
            allowUserInteraction: allowUserInteraction, sender: sender,
            publicationPath: Self.absolutePath(asset.location))

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
        return LCPLicense(validated: ValidatedLicense(license: document, status: nil, context: .failure(error)),
                          repository: nil, client: service.client, validation: nil, now: service.now)
    }
}

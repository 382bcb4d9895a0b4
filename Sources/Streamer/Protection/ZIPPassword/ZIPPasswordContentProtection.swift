import LibZip
import Shared

/// Unlocks ZIP packages (EPUB, CBZ, Readium packages, zipped audio books…) whose entries are
/// encrypted with a ZIP password: traditional PKWARE encryption, read by libzip, and WinZip
/// AES (AE-1 and AE-2, 128, 192 and 256 bits), decrypted by ``WinZipAESEntry``.
///
/// A format-specific protection of the Readium Content Protection proposal: it runs after the
/// third-party protections (LCP…) and before the fallback. With the right password the
/// publication opens unrestricted. Without it there is no restricted mode, since the
/// package's metadata is encrypted like the rest: the person is asked (only when
/// `allowUserInteraction` is true, again after each wrong password until they cancel), and
/// opening otherwise fails with ``OpeningError/incorrectCredentials(_:)``.
///
/// Entries stored in clear (a partly encrypted archive) are read as they are.
public struct ZIPPasswordContentProtection: ContentProtection {
    /// The scheme of its ``ContentProtectionService``.
    public static let scheme = "zip-password"

    public init() {}

    public func open(asset: Asset, fetcher: any Fetcher, credentials: String?, allowUserInteraction: Bool,
                     sender: (any Sendable)?, onAskCredentials: OnAskCredentials?) async throws(OpeningError) -> ProtectedAsset? {
        guard asset.format.isZIPPackage, let archiveFetcher = fetcher as? ArchiveFetcher else { return nil }
        let archive = archiveFetcher.archive
        let encrypted = archive.entries.filter { $0.isEncrypted && !$0.isDirectory }
        guard !encrypted.isEmpty else { return nil }

        let verifier = ZIPPasswordVerifier(archive: archive)
        guard !verifier.probes.isEmpty else {
            throw ZIPPasswordError.unsupportedEncryption(method: encrypted[0].encryptionMethod).openingError
        }

        // The refusal of the last password tried, shown with the next prompt.
        var refusal: ZIPPasswordError?
        var candidate = credentials
        while true {
            if let password = candidate {
                switch verifier.unlock(with: password) {
                case .success(let bytes):
                    return unlocked(asset, archiveFetcher, password: password, bytes: bytes)
                case .failure(let error):
                    // Damage is no matter of credentials: asking again would not help.
                    if case .damaged = error { throw error.openingError }
                    refusal = error
                }
            }
            guard allowUserInteraction, let onAskCredentials else {
                throw (refusal ?? .passwordRequired).openingError
            }
            let request = CredentialsRequest(
                kind: .password, title: asset.name,
                message: "\(asset.name) is a password-protected ZIP archive: enter its password to open it.",
                error: refusal?.userMessage)
            guard !Task.isCancelled, let answer = await onAskCredentials(request, sender) else {
                throw (refusal ?? .passwordRequired).openingError
            }
            candidate = answer
        }
    }

    /// The asset with a fetcher that decrypts WinZip AES entries (libzip decrypts the PKWARE
    /// ones with the archive's password, now set) and the unrestricted protection service.
    private func unlocked(_ asset: Asset, _ fetcher: ArchiveFetcher, password: String, bytes: [UInt8]) -> ProtectedAsset {
        let reader = WinZipAESEntryReader(archive: fetcher.archive, password: bytes)
        let decrypting = TransformingFetcher(fetcher) { resource in
            guard let entryResource = resource as? ArchiveEntryResource else { return resource }
            switch entryResource.entry.encryption {
            case .winZipAES:
                return WinZipAESEntryResource(link: entryResource.link, entry: entryResource.entry, reader: reader)
            case .unsupported(let method):
                let error = ZIPPasswordError.unsupportedEncryption(method: method)
                return FailureResource(link: entryResource.link, error: .forbidden(error))
            case .none, .traditionalPKWARE:
                return resource
            }
        }
        return ProtectedAsset(asset: asset, fetcher: decrypting) { builder in
            builder.servicesBuilder.set(PublicationServicesBuilder.contentProtection) { _ in
                ZIPPasswordProtectionService(password: password)
            }
        }
    }
}

import FoundationEssentials
import Shared

/// The Feedbooks / DPLA signed audiobook manifest as a content protection: claims Readium
/// audiobooks (packaged or standalone manifests) whose manifest uses the Feedbooks vocabulary,
/// and runs its three checks (audiobook-drm.md §5), each skipped when the manifest has no data
/// for it:
///
/// 1. the rights period (`…/audiobooks/rights`) against the clock;
/// 2. the signature (`…/audiobooks/signature`) with the issuer's published keys;
/// 3. the License Status Document of the `license` link, only when the audiobook is opened
///    for listening (`allowUserInteraction`), never when importing.
///
/// Any failure opens the publication restricted: metadata, table of contents and cover
/// readable, tracks `forbidden`, the reason as the protection error. The audio itself is not
/// encrypted; tracks marked with the access restriction are read as they are, and a server
/// refusal is explained (Lectern has no library-app token).
public struct FeedbooksAudiobookProtection: ContentProtection {
    public let configuration: AudiobookDRMConfiguration

    public init(configuration: AudiobookDRMConfiguration = AudiobookDRMConfiguration()) {
        self.configuration = configuration
    }

    public func open(asset: Asset, fetcher: any Fetcher, credentials: String?, allowUserInteraction: Bool,
                     sender: (any Sendable)?, onAskCredentials: OnAskCredentials?) async throws(OpeningError) -> ProtectedAsset? {
        guard !asset.format.isLCPProtected, let href = Self.manifestHref(asset) else { return nil }
        // A manifest that cannot be read or parsed is the parser's to report.
        guard case .success(let data) = fetcher.get(Link(href: href, mediaType: asset.format.mediaType)).read(),
              let manifest = FeedbooksManifest(bytes: [UInt8](data), location: Href.isHTTP(asset.location) ? asset.location : nil),
              manifest.carriesFeedbooksVocabulary
        else { return nil }

        let report = await check(manifest, allowUserInteraction: allowUserInteraction)
        let verified = VerifiedManifestFetcher(fetcher, manifestHref: href, manifestBytes: data)
        return ProtectedAsset(asset: asset, fetcher: verified) { builder in
            if let failure = report.failure {
                builder.fetcher = TrackAccess.locking(builder.fetcher, manifest: builder.manifest, error: failure)
            } else {
                builder.fetcher = TrackAccess.explainingAccessRestriction(builder.fetcher, manifest: builder.manifest, base: href)
            }
            let isSigned = manifest.signature != nil
            builder.servicesBuilder.set(PublicationServicesBuilder.contentProtection) { _ in
                FeedbooksAudiobookProtectionService(report: report, isSigned: isSigned)
            }
        }
    }

    /// Runs the checks in the reference order (rights, signature, license status), stopping at
    /// the first failure: what follows would not change the verdict and may need the network.
    func check(_ manifest: FeedbooksManifest, allowUserInteraction: Bool) async -> AudiobookDRMReport {
        let notChecked = AudiobookDRMReport.Outcome.skipped("not checked after an earlier failure")
        var report = AudiobookDRMReport(rights: RightsPeriod.check(manifest.rights, now: configuration.now()),
                                        signature: notChecked, licenseStatus: notChecked,
                                        accessRestrictedTracks: manifest.accessRestrictedTrackCount)
        guard report.failure == nil else { return report }
        report.signature = await SignatureCheck(configuration: configuration).check(manifest)
        guard report.failure == nil else { return report }
        if let url = manifest.licenseStatusURL {
            report.licenseStatus = allowUserInteraction
                ? await LicenseStatusCheck(httpClient: configuration.httpClient, timeout: configuration.licenseStatusTimeout).check(url)
                : .skipped("the license status is checked when the audiobook is opened for listening")
        } else {
            report.licenseStatus = .skipped("the manifest has no license status link")
        }
        return report
    }

    /// Where the manifest is in the asset's fetcher, as the Readium parser reads it; nil for
    /// formats that are not audiobooks.
    static func manifestHref(_ asset: Asset) -> String? {
        switch asset.format.kind {
        case .audiobook:
            "manifest.json"
        case .audiobookManifest:
            // A manifest on its own: its fetcher exposes it by its URL or its file name.
            Href.isAbsoluteURL(asset.location) ? asset.location : Href.fromPath(asset.name)
        default:
            nil
        }
    }
}

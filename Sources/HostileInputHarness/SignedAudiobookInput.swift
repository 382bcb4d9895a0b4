import AudiobookDRM
import FoundationEssentials
import Shared
import Streamer

/// Signed (Feedbooks/DPLA) audiobook manifests and the key sets that verify them, opened as
/// `lectern listen` opens a standalone manifest: the protection checks the rights period, the
/// signature (key set from ``OfflineHTTPClient``) and the license status, then the Readium
/// parser builds the publication, whose tracks are read (and refused when locked).
public enum SignedAudiobookInput {
    /// A manifest, checked with the issuer's real key set.
    public static func consumeManifest(_ bytes: [UInt8]) async {
        let client = OfflineHTTPClient([
            SignedAudiobookFixtures.keySetURL: Data(SignedAudiobookFixtures.keySet.utf8),
            SignedAudiobookFixtures.licenseStatusURL: Data(SignedAudiobookFixtures.licenseStatus.utf8),
        ])
        await open(manifest: bytes, httpClient: client, now: SignedAudiobookFixtures.withinRightsPeriod)
    }

    /// A key set, used to check a real signed manifest.
    public static func consumeKeySet(_ bytes: [UInt8]) async {
        let client = OfflineHTTPClient([SignedAudiobookFixtures.keySetURL: Data(bytes)])
        await open(manifest: Array(SignedAudiobookFixtures.signedManifest.utf8), httpClient: client,
                   now: SignedAudiobookFixtures.withinSignedManifestRights)
    }

    static func open(manifest: [UInt8], httpClient: OfflineHTTPClient, now: Date) async {
        let configuration = AudiobookDRMConfiguration(httpClient: httpClient, now: { now }, keySetCacheDirectory: nil)
        let opener = PublicationOpener(contentProtections: [FeedbooksAudiobookProtection(configuration: configuration)],
                                       parsers: [ReadiumWebPubParser(httpClient: httpClient)])
        let asset = Asset(name: "manifest.json", location: "manifest.json",
                          format: Format(kind: .audiobookManifest),
                          fetcher: MemoryFetcher([("manifest.json", Data(manifest))]))
        let publication: Publication
        do {
            publication = try await opener.open(asset: asset, allowUserInteraction: true, warnings: ListWarningLogger())
        } catch {
            _ = error.userMessage
            return
        }
        if let service = publication.findService(FeedbooksAudiobookProtectionService.self) {
            _ = (service.report, service.isRestricted, service.error.map { Shared.userMessage(of: $0) })
        }
        PublicationProbe.probe(publication)
    }
}

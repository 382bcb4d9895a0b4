import AudiobookDRM
import FoundationEssentials
import LCP
import Shared

/// A License Status Document, read by both of its readers: the LCP model (links, dates,
/// events, templated URLs), on the bytes directly (target `license-status`), and the
/// signed-audiobook check, which fetches it from the manifest's `license` link when an
/// audiobook is opened for listening (target `audiobook-status`: a whole opening per input).
public enum LicenseStatusInput {
    public static func consume(_ bytes: [UInt8]) {
        readAsLCPStatus(bytes)
    }

    public static func consumeAsAudiobookStatus(_ bytes: [UInt8]) async {
        await readAsAudiobookLicenseStatus(bytes)
    }

    static func readAsLCPStatus(_ bytes: [UInt8]) {
        let document: StatusDocument
        do {
            document = try StatusDocument(data: bytes)
        } catch {
            return
        }
        _ = (document.id, document.status, document.message, document.licenseUpdated, document.statusUpdated,
             document.potentialRightsEnd, document.registeredDeviceCount)
        for rel in ["license", "register", "renew", "return"] {
            _ = document.link(rel, type: "application/vnd.readium.license.status.v1.0+json")?
                .url(["id": "fuzz-device", "name": "Fuzz device", "end": "2030-01-01T00:00:00Z"])
        }
        for link in document.links { _ = link.url() }
    }

    static func readAsAudiobookLicenseStatus(_ bytes: [UInt8]) async {
        let client = OfflineHTTPClient([SignedAudiobookFixtures.licenseStatusURL: Data(bytes)])
        await SignedAudiobookInput.open(manifest: Array(SignedAudiobookFixtures.manifestWithLicenseLink.utf8),
                                        httpClient: client, now: SignedAudiobookFixtures.withinRightsPeriod)
    }
}

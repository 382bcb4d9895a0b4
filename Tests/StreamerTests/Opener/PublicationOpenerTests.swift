import Foundation
import Shared
import Streamer
import Synchronization
import Testing
import TestSupport

/// A protection that claims every asset whose name contains `marker`, records that it ran, and
/// installs a service naming itself.
final class SpyProtection: ContentProtection {
    let name: String
    let marker: String
    let restricted: Bool
    let calls = Mutex<[String]>([])

    init(name: String, marker: String, restricted: Bool = false) {
        self.name = name
        self.marker = marker
        self.restricted = restricted
    }

    func open(asset: Asset, fetcher: any Fetcher, credentials: String?, allowUserInteraction: Bool,
              sender: (any Sendable)?, onAskCredentials: OnAskCredentials?) async throws(OpeningError) -> ProtectedAsset? {
        calls.withLock { $0.append(asset.name) }
        guard asset.name.contains(marker) else { return nil }
        let name = name, restricted = restricted
        return ProtectedAsset(asset: asset, fetcher: fetcher) { builder in
            builder.servicesBuilder.set(PublicationServicesBuilder.contentProtection) { _ in
                SpyProtectionService(name: name, restricted: restricted)
            }
        }
    }
}

final class SpyProtectionService: ContentProtectionService {
    let protectionName: String
    let isRestricted: Bool
    init(name: String, restricted: Bool) {
        protectionName = name
        isRestricted = restricted
    }
    var error: (any Error)? { isRestricted ? ResourceFailure("locked by \(protectionName)") : nil }
    var name: LocalizedString? { .nonlocalized(protectionName) }
    var scheme: String { "spy:\(protectionName)" }
}

/// A protection that refuses every asset with an opening error.
struct RefusingProtection: ContentProtection {
    func open(asset: Asset, fetcher: any Fetcher, credentials: String?, allowUserInteraction: Bool,
              sender: (any Sendable)?, onAskCredentials: OnAskCredentials?) async throws(OpeningError) -> ProtectedAsset? {
        throw .incorrectCredentials("wrong password")
    }
}

@Suite struct PublicationOpenerTests {
    func webpubAsset(named name: String = "readium-mobydick.webpub") throws -> Asset {
        let path = Fixtures.sample("webpub/readium-mobydick.webpub")
        return Asset(name: name, location: path, format: Format(kind: .webpub), fetcher: try ArchiveFetcher(path: path))
    }

    @Test func opensAnUnprotectedPackage() async throws {
        let publication = try await PublicationOpener().open(asset: try webpubAsset(), allowUserInteraction: false)
        #expect(publication.metadata.title == "Moby-Dick")
        #expect(publication.readingOrder.count == 10)
        #expect(!publication.isProtected)
        #expect(!publication.isRestricted)
        #expect(await publication.rights.canCopy)
        #expect(publication.protectionName == nil)
        #expect(publication.format?.kind == .webpub)
    }

    @Test func thirdPartyProtectionsTakePrecedenceInOrderAndOnlyOneApplies() async throws {
        let first = SpyProtection(name: "first", marker: "mobydick")
        let second = SpyProtection(name: "second", marker: "mobydick")
        let format = SpyProtection(name: "format", marker: "mobydick")
        let opener = PublicationOpener(contentProtections: [first, second], formatProtections: [format])
        let publication = try await opener.open(asset: try webpubAsset(), allowUserInteraction: false)
        #expect(publication.protectionName == "first")
        #expect(first.calls.withLock { $0.count } == 1)
        #expect(second.calls.withLock { $0.isEmpty })
        #expect(format.calls.withLock { $0.isEmpty })
    }

    @Test func formatProtectionsRunWhenNoThirdPartyClaimsTheAsset() async throws {
        let third = SpyProtection(name: "third", marker: "nothing-matches")
        let format = SpyProtection(name: "format", marker: "mobydick", restricted: true)
        let opener = PublicationOpener(contentProtections: [third], formatProtections: [format])
        let publication = try await opener.open(asset: try webpubAsset(), allowUserInteraction: false)
        #expect(third.calls.withLock { $0.count } == 1)
        #expect(publication.protectionName == "format")
        #expect(publication.isRestricted)
        #expect(await !publication.rights.canCopy)
        #expect(publication.protectionError.map(userMessage(of:)) == "locked by format")
    }

    @Test func aProtectionErrorAbortsOpening() async throws {
        let opener = PublicationOpener(contentProtections: [RefusingProtection()])
        await #expect(throws: OpeningError.self) {
            _ = try await opener.open(asset: try webpubAsset(), allowUserInteraction: false)
        }
    }

    @Test func callerTransformRunsAfterTheProtections() async throws {
        let protection = SpyProtection(name: "spy", marker: "mobydick")
        let opener = PublicationOpener(contentProtections: [protection])
        let publication = try await opener.open(asset: try webpubAsset(), allowUserInteraction: false) { builder in
            // The protection's service is already installed when the caller's transform runs.
            #expect(builder.servicesBuilder.factory(for: PublicationServicesBuilder.contentProtection) != nil)
            builder.manifest.metadata.localizedTitle = "Renamed"
        }
        #expect(publication.metadata.title == "Renamed")
        #expect(publication.protectionName == "spy")
    }

    @Test func unsupportedFormatIsAnOpeningError() async throws {
        let path = Fixtures.sample("format-sniffing/unknown.zip")
        let asset = Asset(name: "unknown.zip", location: path, format: Format(kind: .zip), fetcher: try ArchiveFetcher(path: path))
        do {
            _ = try await PublicationOpener().open(asset: asset, allowUserInteraction: false)
            Issue.record("a plain ZIP must not open")
        } catch {
            guard case .unsupportedFormat = error else { Issue.record("unexpected \(error)"); return }
        }
    }

    @Test func lcpPublicationWithoutTheLCPModuleIsRestrictedNotGarbage() async throws {
        let path = Fixtures.sample("lcp/swifttoolkit-daisy.lcpdf")
        let asset = Asset(name: "daisy.lcpdf", location: path, format: Format(kind: .lcpdf, isLCPProtected: true),
                          fetcher: try ArchiveFetcher(path: path))
        let publication = try await PublicationOpener().open(asset: asset, allowUserInteraction: false)
        #expect(publication.isProtected)
        #expect(publication.isRestricted)
        #expect(publication.protectionName == "Readium LCP")
        #expect(await !publication.rights.canCopy)
        #expect(await !publication.rights.canPrint)
        let pdf = try #require(publication.readingOrder.first)
        guard case .failure(.forbidden) = publication.get(pdf).read() else {
            Issue.record("the encrypted PDF must be forbidden, not served as ciphertext")
            return
        }
        // Metadata stays readable.
        #expect(publication.metadata.title != nil)
    }

    @Test func contentProtectionRouteDescribesTheRestriction() async throws {
        let path = Fixtures.sample("lcp/swifttoolkit-daisy.lcpdf")
        let asset = Asset(name: "daisy.lcpdf", location: path, format: Format(kind: .lcpdf, isLCPProtected: true),
                          fetcher: try ArchiveFetcher(path: path))
        let publication = try await PublicationOpener().open(asset: asset, allowUserInteraction: false)
        let routes = RightsWebService(publication: publication)
        guard case .document(let json, _) = await routes.status() else {
            Issue.record("no status document")
            return
        }
        #expect(json["isRestricted"]?.bool == true)
        #expect(json["name"]?.string == "Readium LCP")
        #expect(json["rights"]?["canCopy"]?.bool == false)
        guard case .refused = await routes.copy(query: ["text": "hello", "peek": "true"]) else {
            Issue.record("copy must be forbidden on a restricted publication")
            return
        }
    }
}

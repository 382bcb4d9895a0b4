import Foundation
import HostileInputHarness
import Testing
import TestSupport

/// The inputs replayed for each fuzz target: what the fuzzers found (`Tests/Fixtures/fuzz/<target>/`,
/// kept by `make fuzz`), the hand-made seeds (`Fuzz/seeds/<target>/`) and the samples that are
/// themselves inputs of that kind.
struct FuzzInput: CustomTestStringConvertible, Sendable {
    let target: HostileInput
    /// Relative to the repository root.
    let path: String

    var testDescription: String { path }

    var bytes: [UInt8] { [UInt8](Fixtures.bytes(Fixtures.repositoryRoot + "/" + path)) }
}

enum FuzzCorpus {
    /// Inputs that still crash the harness, by path: each has a disabled test of its own
    /// (``KnownCrashTests``) until its bug is fixed, and is not replayed with the others.
    static let knownCrashes: Set<String> = Set(KnownCrash.all.map(\.path))

    /// Crash, timeout and out-of-memory inputs the fuzzers found.
    static var found: [FuzzInput] {
        HostileInput.allCases.flatMap { target in
            files(under: "Tests/Fixtures/fuzz/\(target.rawValue)").map { FuzzInput(target: target, path: $0) }
        }.filter { !knownCrashes.contains($0.path) }
    }

    /// The committed seeds, and the samples that are inputs as they are.
    static var seeds: [FuzzInput] {
        let handMade = HostileInput.allCases.flatMap { target in
            files(under: "Fuzz/seeds/\(target.rawValue)").map { FuzzInput(target: target, path: $0) }
        }
        let samples: [(HostileInput, String)] = [
            (.lcpLicense, "lcp/r2streamerjs-wasteland-otf-obf_LCP_dan.lcpl"),
            (.lcpLicense, "format-sniffing/lcpl.unknown"),
            (.licenseStatus, "audiobook-drm/lcp_license_status.json"),
            (.licenseStatus, "audiobook-drm/lcp_license_status_revoked.json"),
            (.audiobookStatus, "audiobook-drm/lcp_license_status.json"),
            (.opds1Feed, "format-sniffing/opds1-feed.unknown"),
            (.opds1Feed, "format-sniffing/opds1-entry.unknown"),
            (.opds2Feed, "format-sniffing/opds2-feed.json"),
            (.opds2Feed, "webpub/swifttoolkit-opds2-publication.json"),
            (.audiobookManifest, "audiobook-drm/feedbooks_0.json"),
            (.audiobookManifest, "audiobook-drm/feedbooks_2.json"),
            (.audiobookManifest, "audiobook-drm/feedbooks_rights_no_end.json"),
            (.audiobookKeySet, "audiobook-drm/jwks_0.json"),
            (.audiobookKeySet, "audiobook-drm/jwks_2.json"),
            (.rwpmManifest, "webpub/swifttoolkit-webpub.json"),
            (.rwpmManifest, "webpub/swifttoolkit-divina.json"),
            (.rwpmManifest, "audiobook/readium-flatland-librivox.audiobook-manifest.json"),
            (.zipArchive, "epub/w3c-ocf-package_multiple.epub"),
            (.zipArchive, "cbz/swifttoolkit-test-comicinfo.cbz"),
            (.zipArchive, "format-sniffing/webpub-package.unknown"),
            (.zipArchive, "lcp/swifttoolkit-epub-lcp.epub"),
            (.pdfDocument, "pdf/pypdf-pdflatex-outline.pdf"),
        ]
        return handMade + samples.map { FuzzInput(target: $0.0, path: "Tests/Fixtures/Samples/" + $0.1) }
    }

    /// The regular files under `folder` (relative to the repository root), sorted, hidden
    /// files and README excluded.
    static func files(under folder: String) -> [String] {
        let root = Fixtures.repositoryRoot + "/" + folder
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root) else { return [] }
        return names.sorted().filter { name in
            var isDirectory: ObjCBool = false
            return !name.hasPrefix(".") && !name.hasPrefix("README")
                && FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isDirectory) && !isDirectory.boolValue
        }.map { folder + "/" + $0 }
    }
}

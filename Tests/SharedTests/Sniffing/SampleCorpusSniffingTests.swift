import Foundation
@testable import Shared
import Testing
import TestSupport

/// The format of every fixture of `Tests/Fixtures/Samples/format-sniffing/` (expected results
/// from the samples README, i.e. swift-toolkit's FormatSniffersTests) and of every real
/// sample of the corpus.
@Suite struct SampleCorpusSniffingTests {
    static let formatSniffingFixtures: [String: SniffingExpectation] = [
        "epub.unknown": .kind(.epub),
        "audiobook-package.unknown": .kind(.audiobook),
        "webpub-package.unknown": .kind(.webpub),
        "divina-package.unknown": .kind(.divina),
        "cbz.unknown": .kind(.cbz),
        "zab.unknown": .kind(.zab),
        "lcpl.unknown": .kind(.lcpl),
        "opds1-feed.unknown": .kind(.opds1Feed),
        "opds1-entry.unknown": .kind(.opds1Entry),
        "opds2-feed.json": .kind(.opds2Feed),
        "opds-authentication.json": .kind(.opdsAuthentication),
        "html.unknown": .kind(.html),
        "html-doctype-case.unknown": .kind(.html),
        "xhtml.unknown": .kind(.xhtml),
        "json.unknown": .kind(.json),
        "audiobook.json": .kind(.audiobookManifest),
        "audiobook-wrongtype.json": .kind(.audiobookManifest),
        "lpf-index-html.unknown": .kind(.lpf),
        "unknown.zip": .kind(.zip),
        "unknown": .unknown,
    ]

    /// Every file of the corpus outside `format-sniffing/`, by folder and name.
    static func corpusExpectation(_ relativePath: String) -> SniffingExpectation? {
        let name = (relativePath as NSString).lastPathComponent
        let folder = (relativePath as NSString).deletingLastPathComponent
        let ext = (name as NSString).pathExtension
        switch (folder, ext) {
        case ("epub", "epub"): return .kind(.epub)
        // The plaintext source of the LCP server's book is in the lcp folder but is clear.
        case ("lcp", "epub"): return name.hasSuffix("-source.epub") ? .kind(.epub) : .kind(.epub, lcp: true)
        case ("lcp", "lcpdf"): return .kind(.lcpdf, lcp: true)
        case ("lcp", "lcpl"): return .kind(.lcpl)
        case ("lcp", "pdf"), ("pdf", "pdf"): return .kind(.pdf)
        case ("lcp", "pem"): return .unknown
        case ("cbz", "cbz"), ("protected-zip", "cbz"): return .kind(.cbz)
        case ("protected-zip", "epub"): return .kind(.epub)
        case ("audiobook", "audiobook"): return .kind(.audiobook)
        case ("audiobook", "zab"): return .kind(.zab)
        case ("audiobook", "json"): return .kind(.audiobookManifest)
        case ("webpub", "webpub"): return .kind(.webpub)
        default: break
        }
        switch relativePath {
        case "webpub/swifttoolkit-webpub.json": return .kind(.webpubManifest)
        case "webpub/swifttoolkit-divina.json": return .kind(.divinaManifest)
        case "webpub/swifttoolkit-opds2-publication.json": return .kind(.opds2Publication)
        // License status documents and key sets are JSON, not publications.
        case "audiobook-drm/jwks_0.json", "audiobook-drm/lcp_license_status.json",
             "audiobook-drm/lcp_license_status_revoked.json", "audiobook-drm/lcp_license_status_unspec.json":
            return .kind(.json)
        case "audiobook-drm/jwks_2.json": return .unknown
        // A Markdown file is a publication since #34 (read through cmark-gfm).
        case "README.md": return .kind(.markdown)
        default: break
        }
        if folder == "audiobook-drm", name.hasPrefix("feedbooks_") { return .kind(.audiobookManifest) }
        return nil
    }

    static var corpusFiles: [String] {
        let root = Fixtures.sample("")
        let all = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return all.filter { path in
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: root + path, isDirectory: &isDirectory)
            return !isDirectory.boolValue && !path.hasPrefix("format-sniffing/")
        }.sorted()
    }

    @Test(arguments: formatSniffingFixtures.keys.sorted())
    func formatSniffingFixture(_ name: String) throws {
        let expected = try #require(Self.formatSniffingFixtures[name])
        let format = try FormatSniffer().sniff(file: Fixtures.sample("format-sniffing/" + name))
        #expect(expected.matches(format), "\(name): expected \(expected), got \(format.summary)")
    }

    @Test func everyFormatSniffingFixtureHasAnExpectation() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.sample("format-sniffing"))
        #expect(Set(names) == Set(Self.formatSniffingFixtures.keys))
    }

    @Test(arguments: corpusFiles)
    func corpusSample(_ relativePath: String) throws {
        let expected = try #require(Self.corpusExpectation(relativePath), "no expectation for \(relativePath)")
        let format = try FormatSniffer().sniff(file: Fixtures.sample(relativePath))
        #expect(expected.matches(format), "\(relativePath): expected \(expected), got \(format.summary)")
    }

    /// A publication gives an asset of the same format; anything else the error naming it.
    @Test(arguments: corpusFiles)
    func corpusSampleAsAsset(_ relativePath: String) throws {
        let expected = try #require(Self.corpusExpectation(relativePath))
        let path = Fixtures.sample(relativePath)
        do {
            let asset = try AssetRetriever().retrieve(path: path)
            defer { asset.fetcher.close() }
            #expect(expected.matches(asset.format), "\(relativePath): got \(Optional(asset.format).summary)")
            #expect(asset.format.isPublication)
        } catch {
            guard case .unsupportedFormat(path, let detected) = error else {
                Issue.record("\(relativePath): \(error)")
                return
            }
            #expect(expected.matches(detected), "\(relativePath): got \(detected.summary)")
            #expect(detected?.isPublication != true)
        }
    }

    @Test func theCorpusIsThere() {
        #expect(Self.corpusFiles.count > 60)
    }
}

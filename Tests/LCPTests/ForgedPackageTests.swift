import Foundation
import LCP
import Shared
import Testing
import TestSupport

/// Protected EPUB, LCPDF and LCPA packages made by the tests: deflated and stored resources,
/// whole and ranged reads, clear resources, restricted opening.
@Suite struct ForgedPackageTests {
    func scratch(_ name: String) -> String { Fixtures.temporaryDirectory("lcp-forged") + "/" + name }

    @Test(arguments: [false, true])
    func epubResourcesDecryptWholeAndByRanges(ecdsa: Bool) async throws {
        var spec = LicenseSpec()
        if ecdsa { spec.signer = TestPKI.shared.ecdsa }
        let license = try LicenseForge.make(spec)
        var resources = PackageForge.defaultResources()
        // The same stored chapter, but in a ZIP-deflated entry: it cannot be read at an offset.
        var zipped = ForgedResource("OEBPS/chapter3.xhtml", PackageForge.text(40_000, seed: "three"), mediaType: "application/xhtml+xml")
        zipped.zip = .deflated
        resources.append(zipped)
        let path = scratch("book.epub")
        try PackageForge.epub(at: path, license: license, resources: resources)

        let lcp = try TestLCP()
        let publication = try await lcp.open(path, credentials: "open sesame")
        defer { publication.close() }
        #expect(!publication.isRestricted)
        #expect(publication.metadata.title == "Forged LCP Book")
        #expect(publication.lcpLicense?.certificateTrust == .chain)
        for resource in resources {
            let href = resource.path
            let read = publication.get(href)
            #expect(try read.read().get() == resource.plaintext, "\(href)")
            #expect(try read.length.get() == UInt64(resource.plaintext.count), "\(href)")
            let size = UInt64(resource.plaintext.count)
            for range in Self.ranges(size: size) {
                let expected = resource.plaintext.subdata(in: Int(min(range.lowerBound, size))..<Int(min(range.upperBound, size)))
                #expect(try read.read(range: range).get() == expected, "\(href) \(range)")
            }
        }
        // The navigation document is in clear.
        #expect(try publication.read("OEBPS/nav.xhtml") == Data(PackageForge.nav.utf8))
    }

    /// Ranges around block boundaries, the padding, and past the end.
    static func ranges(size: UInt64) -> [Range<UInt64>] {
        var ranges: [Range<UInt64>] = [0..<1, 0..<16, 15..<17, 16..<32, 31..<33, 1000..<5000, 4095..<4097]
        ranges += [(size - 1)..<size, (size - 17)..<size, (size - 16)..<(size + 40), size..<(size + 10), (size / 2)..<(size / 2 + 65_536)]
        for _ in 0..<20 {
            let a = UInt64.random(in: 0..<size), b = UInt64.random(in: a...(size + 20))
            ranges.append(a..<b)
        }
        return ranges
    }

    /// Plaintext that is a whole number of blocks gets a full pad block; the size must come
    /// from it, not from `OriginalLength`.
    @Test func blockAlignedStoredResourceHasItsExactSize() async throws {
        let license = try LicenseForge.make(LicenseSpec())
        let aligned = ForgedResource("OEBPS/images/pic.png", Data([0x89] + LicenseForge.randomBytes(8191)), mediaType: "image/png")
        let path = scratch("aligned.epub")
        try PackageForge.epub(at: path, license: license, resources: [
            ForgedResource("OEBPS/chapter1.xhtml", PackageForge.text(3000), mediaType: "application/xhtml+xml"), aligned,
        ])
        let publication = try await TestLCP().open(path, credentials: "open sesame")
        defer { publication.close() }
        let resource = publication.get(aligned.path)
        #expect(try resource.length.get() == 8192)
        #expect(try resource.read(range: 8100..<9000).get() == aligned.plaintext.subdata(in: 8100..<8192))
        #expect(try resource.read().get() == aligned.plaintext)
    }

    @Test func lcpdfDecryptsItsPDF() async throws {
        let license = try LicenseForge.make(LicenseSpec())
        let pdf = Data("%PDF-1.4\n".utf8) + LicenseForge.randomBytes(100_000) + Data("\n%%EOF\n".utf8)
        let path = scratch("book.lcpdf")
        try PackageForge.readiumPackage(at: path, license: license, conformsTo: "https://readium.org/webpub-manifest/profiles/pdf",
                                        readingOrder: [ForgedResource("publication.pdf", pdf, mediaType: "application/pdf")])
        let publication = try await TestLCP().open(path, credentials: "open sesame")
        defer { publication.close() }
        #expect(publication.format?.kind == .lcpdf)
        #expect(!publication.isRestricted)
        let resource = publication.get("publication.pdf")
        #expect(try resource.read().get() == pdf)
        #expect(try resource.read(range: 50_000..<50_100).get() == pdf.subdata(in: 50_000..<50_100))
    }

    @Test(arguments: ["lcpa", "lcpau"])
    func lcpAudiobookDecryptsTracksAndDeflatedResources(_ ext: String) async throws {
        let license = try LicenseForge.make(LicenseSpec())
        let track1 = ForgedResource("audio/track1.mp3", Data("ID3".utf8) + Data([3, 0]) + LicenseForge.randomBytes(150_000), mediaType: "audio/mpeg")
        var track2 = ForgedResource("audio/track2.mp3", Data("ID3".utf8) + Data([3, 0]) + LicenseForge.randomBytes(20_000), mediaType: "audio/mpeg")
        track2.zip = .deflated
        let notes = ForgedResource("notes.html", PackageForge.text(9000, seed: "notes"), mediaType: "text/html", deflate: true)
        let path = scratch("book.\(ext)")
        try PackageForge.readiumPackage(at: path, license: license, conformsTo: "https://readium.org/webpub-manifest/profiles/audiobook",
                                        readingOrder: [track1, track2], resources: [notes])
        let publication = try await TestLCP().open(path, credentials: "open sesame")
        defer { publication.close() }
        #expect(publication.format?.kind == .lcpa)
        #expect(!publication.isRestricted)
        for resource in [track1, track2, notes] {
            #expect(try publication.read(resource.path) == resource.plaintext, "\(resource.path)")
        }
        #expect(try publication.get(track1.path).read(range: 149_990..<200_000).get() == track1.plaintext.subdata(in: 149_990..<track1.plaintext.count))
    }

    @Test func withoutThePassphraseTheBookOpensRestrictedWithItsMetadata() async throws {
        let license = try LicenseForge.make(LicenseSpec())
        let path = scratch("locked.epub")
        try PackageForge.epub(at: path, license: license)
        let publication = try await TestLCP().open(path)
        defer { publication.close() }
        #expect(publication.isRestricted)
        #expect(publication.metadata.title == "Forged LCP Book")
        guard case LCPError.missingPassphrase? = publication.protectionError else {
            Issue.record("expected missingPassphrase, got \(String(describing: publication.protectionError))")
            return
        }
        #expect(try publication.read("OEBPS/nav.xhtml") == Data(PackageForge.nav.utf8))
        guard case .failure(.forbidden) = publication.get("OEBPS/chapter1.xhtml").read() else {
            Issue.record("encrypted resources of a locked book must be forbidden")
            return
        }
        #expect(await !publication.rights.canCopy)
        #expect(await !publication.rights.copy(text: "a").isGranted)
        #expect(publication.lcpLicense?.charactersToCopyLeft == 0)
    }

    @Test func packageWithLCPEncryptionButNoLicenseSaysTheLicenseIsMissing() async throws {
        let path = scratch("nolicense.epub")
        try PackageForge.epub(at: path, license: nil)
        let publication = try await TestLCP().open(path, credentials: "open sesame")
        defer { publication.close() }
        #expect(publication.isRestricted)
        #expect(publication.protectionError.map(userMessage(of:)) == "This book is protected with Readium LCP but its license is missing.")
    }

    @Test func productionProfileIsRefusedBeforeAnyPrompt() async throws {
        var spec = LicenseSpec()
        spec.profile = "http://readium.org/lcp/profile-1.0"
        let path = scratch("production.epub")
        try PackageForge.epub(at: path, license: try LicenseForge.make(spec))
        let prompt = ScriptedAuthentication(["open sesame"])
        let publication = try await TestLCP().open(path, authentication: prompt, allowUserInteraction: true)
        defer { publication.close() }
        #expect(publication.isRestricted)
        #expect(prompt.requestCount == 0)
        #expect(publication.protectionError.map(userMessage(of:))?.contains("commercial Readium LCP profile (profile-1.0)") == true)
        // Its information is still shown.
        #expect(publication.lcpLicense?.license.provider == "https://provider.example.org")
        #expect(publication.lcpLicense?.isLocked == true)
        #expect(await publication.rights.copy(text: "x").isGranted == false)
    }

    @Test func tamperedLicenseOpensRestrictedWithTheSignatureError() async throws {
        let license = try LicenseForge.make(LicenseSpec())
        let path = scratch("tampered.epub")
        try PackageForge.epub(at: path, license: ForgedLicense(
            spec: license.spec, contentKey: license.contentKey, json: license.json,
            data: license.tampered { $0.replacingOccurrences(of: "The usual one", with: "The usual two") }))
        let prompt = ScriptedAuthentication(["open sesame"])
        let lcp = try TestLCP()
        let publication = try await lcp.open(path, authentication: prompt, allowUserInteraction: true)
        defer { publication.close() }
        #expect(publication.isRestricted)
        #expect(publication.protectionError.map(userMessage(of:)) == "The LCP license signature is invalid; the book cannot be opened.")
        // Nobody is asked for the passphrase of a forged license, and it seeds no rights.
        #expect(prompt.requestCount == 0)
        #expect(try lcp.licenses.licenseData(id: license.id) == nil)
    }
}

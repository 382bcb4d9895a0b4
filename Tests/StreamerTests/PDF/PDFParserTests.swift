import Foundation
import Shared
import Streamer
import Testing
import TestSupport

/// PDF files and LCP PDF packages opened through the real pipeline (AssetRetriever, the
/// opener, its protections and parsers).
@Suite struct PDFParserTests {
    func open(_ path: String, credentials: String? = nil, contentProtections: [any ContentProtection] = [],
              warnings: ListWarningLogger? = nil) async throws -> Publication {
        let asset = try AssetRetriever().retrieve(path: path)
        return try await PublicationOpener(contentProtections: contentProtections)
            .open(asset: asset, allowUserInteraction: false, credentials: credentials, warnings: warnings)
    }

    @Test func aPDFFileBecomesAOneItemPublication() async throws {
        let publication = try await open(Fixtures.sample("lcp/swifttoolkit-daisy.pdf"))
        defer { publication.close() }
        #expect(publication.format?.kind == .pdf)
        #expect(publication.metadata.title == "Daisy Miller")
        #expect(publication.metadata.authors.map(\.name) == ["Henry James"])
        #expect(publication.metadata.numberOfPages == 80)
        #expect(publication.metadata.conformsTo == [Manifest.Profile.pdf])
        #expect(publication.readingOrder == [Link(href: "swifttoolkit-daisy.pdf", mediaType: .pdf)])
        #expect(!publication.isProtected)
        // The PDF is readable as the resource the reading order names.
        guard case .success(let data) = publication.get(publication.readingOrder[0]).read() else {
            Issue.record("the PDF must be readable")
            return
        }
        #expect(data == Fixtures.bytes(Fixtures.sample("lcp/swifttoolkit-daisy.pdf")))
    }

    @Test func theTitleFallsBackToTheFileName() async throws {
        let publication = try await open(Fixtures.sample("pdf/pypdf-pdflatex-4-pages.pdf"))
        #expect(publication.metadata.title == "pypdf-pdflatex-4-pages")
        #expect(publication.metadata.authors.isEmpty)
        #expect(publication.tableOfContents.isEmpty)
        #expect(publication.manifest.subcollections["pageList"] == nil, "labels equal to the page numbers are no page list")
    }

    @Test func authorsSubjectsAndDescriptionComeFromTheInfoDictionary() async throws {
        var builder = PDFBuilder.text(pages: ["Hi"])
        builder.add("<< /Title (Notes) /Author (Doe, Jane; Roe, Richard) /Keywords (poetry, sea; ships) /Subject (A short test) >>")
        builder.trailer = "/Info \(builder.objects.count) 0 R"
        let publication = try await open(try builder.write(named: "notes.pdf"))
        #expect(publication.metadata.title == "Notes")
        #expect(publication.metadata.authors.map(\.name) == ["Doe, Jane", "Roe, Richard"])
        #expect(publication.metadata.subjects.map(\.name) == ["poetry", "sea", "ships"])
        #expect(publication.metadata.description == "A short test")
    }

    @Test func theOutlineBecomesTheTableOfContents() async throws {
        let publication = try await open(Fixtures.sample("pdf/pypdf-pdflatex-outline.pdf"))
        let toc = publication.tableOfContents
        #expect(toc.map(\.title) == ["Foo", "Bar", "Baz", "Foo", "Bar", "Baz", "Foo", "Bar", "Baz"])
        #expect(toc.map(\.href) == [2, 2, 2, 2, 3, 3, 3, 4, 4].map { "pypdf-pdflatex-outline.pdf#page=\($0)" })
        #expect(toc.allSatisfy { $0.mediaType == .pdf })
    }

    @Test func nestedOutlineGivesNestedChildren() async throws {
        var builder = PDFBuilder.text(pages: ["One", "Two"], catalogExtra: "/Outlines 8 0 R")
        builder.add("<< /Type /Outlines /First 9 0 R /Last 9 0 R /Count 2 >>")                       // 8
        builder.add("<< /Title (Part) /Parent 8 0 R /First 10 0 R /Last 10 0 R /Count 1 /Dest [4 0 R /Fit] >>") // 9
        builder.add("<< /Title (Chapter) /Parent 9 0 R /Dest [6 0 R /Fit] >>")                      // 10
        let publication = try await open(try builder.write(named: "nested.pdf"))
        #expect(publication.tableOfContents == [
            Link(href: "nested.pdf#page=1", mediaType: .pdf, title: "Part", children: [
                Link(href: "nested.pdf#page=2", mediaType: .pdf, title: "Chapter"),
            ]),
        ])
    }

    @Test func pageLabelsBecomeAPageList() async throws {
        let publication = try await open(Fixtures.sample("lcp/swifttoolkit-daisy.pdf"))
        let pages = publication.manifest.subcollectionLinks("pageList")
        #expect(pages.count == 80)
        #expect(pages.prefix(3).map(\.title) == ["C", "i", "ii"])
        #expect(pages.prefix(3).map(\.href) == (1...3).map { "swifttoolkit-daisy.pdf#page=\($0)" })
    }

    @Test func thePageTextServiceGivesEachPage() async throws {
        let publication = try await open(Fixtures.sample("lcp/swifttoolkit-daisy.pdf"))
        defer { publication.close() }
        let service = try #require(publication.pageTextService)
        #expect(service.pageCount == 80)
        #expect(service.text(ofPage: 2)?.contains("DAISY M") == true)
        #expect(service.pageLabel(ofPage: 1) == "i")
        #expect(service.pageLabel(ofPage: 5) == "1")
        #expect(service.pageIndex(forLabel: "iii") == 3)
        #expect(service.pageIndex(forLabel: "80") == 79, "a number that is no label is a page number")
        let page = try #require(service.firstPage(containing: "winterbourne"))
        #expect(service.text(ofPage: page)?.lowercased().contains("winterbourne") == true)
        #expect(service.firstPage(containing: "no such words anywhere here") == nil)
        #expect(service.text(ofPage: 80) == nil)
    }

    @Test func unprotectedPublicationsOfOtherFormatsHaveNoPageText() async throws {
        let publication = try await open(Fixtures.sample("webpub/readium-mobydick.webpub"))
        #expect(publication.pageTextService == nil)
    }

    // MARK: - LCP PDF packages

    /// Stands in for the LCP module: claims the package and serves `publication.pdf`
    /// decrypted (here: the known plaintext), as the LCP protection's fetcher does.
    struct FakeLCPProtection: ContentProtection {
        func open(asset: Asset, fetcher: any Fetcher, credentials: String?, allowUserInteraction: Bool,
                  sender: (any Sendable)?, onAskCredentials: OnAskCredentials?) async throws(OpeningError) -> ProtectedAsset? {
            guard asset.format.kind == .lcpdf else { return nil }
            let plaintext = Fixtures.bytes(Fixtures.sample("lcp/swifttoolkit-daisy.pdf"))
            let decrypting = TransformingFetcher(fetcher) { resource in
                guard resource.link.path == "publication.pdf" else { return resource }
                return BytesResource(link: resource.link) { .success(plaintext) }
            }
            return ProtectedAsset(asset: asset, fetcher: decrypting, onCreatePublication: nil)
        }
    }

    @Test func anLCPPDFPackageTakesWhatItsManifestLacksFromThePDF() async throws {
        let warnings = ListWarningLogger()
        let publication = try await open(Fixtures.sample("lcp/swifttoolkit-daisy.lcpdf"),
                                         contentProtections: [FakeLCPProtection()], warnings: warnings)
        defer { publication.close() }
        #expect(publication.format?.kind == .lcpdf)
        #expect(publication.metadata.title == "Daisy", "the manifest's title wins")
        #expect(publication.metadata.numberOfPages == 80)
        #expect(publication.metadata.conformsTo.contains(Manifest.Profile.pdf))
        #expect(publication.manifest.subcollectionLinks("pageList").first?.href == "publication.pdf#page=1")
        let service = try #require(publication.pageTextService)
        #expect(service.pageCount == 80)
        #expect(service.text(ofPage: 2)?.contains("DAISY M") == true)
        #expect(!warnings.warnings.contains { $0.message.contains("cannot be read") })
    }

    @Test func aRestrictedLCPPDFPackageOpensWithoutPageText() async throws {
        let warnings = ListWarningLogger()
        let publication = try await open(Fixtures.sample("lcp/swifttoolkit-daisy.lcpdf"), warnings: warnings)
        defer { publication.close() }
        #expect(publication.isRestricted)
        #expect(publication.metadata.numberOfPages == nil)
        #expect(publication.pageTextService?.pageCount == 0)
        #expect(publication.pageTextService?.text(ofPage: 0) == nil)
        #expect(!warnings.warnings.contains { $0.message.contains("cannot be read") }, "restriction is not damage")
    }

    @Test func anLCPPDFPackageWhosePDFIsDamagedStillOpensWithAWarning() async throws {
        let path = Fixtures.temporaryDirectory("lcpdf") + "/broken.lcpdf"
        try ZipBuilder.write([
            .init("manifest.json", #"{"metadata":{"title":"Broken"},"readingOrder":[{"href":"publication.pdf","type":"application/pdf"}]}"#),
            .init("publication.pdf", "%PDF-1.4 nothing else"),
        ], to: path)
        let warnings = ListWarningLogger()
        let asset = Asset(name: "broken.lcpdf", location: path, format: Format(kind: .lcpdf), fetcher: try ArchiveFetcher(path: path))
        let publication = try await PublicationOpener(formatProtections: [])
            .open(asset: asset, allowUserInteraction: false, warnings: warnings)
        #expect(publication.metadata.title == "Broken")
        #expect(publication.metadata.numberOfPages == nil)
        #expect(warnings.warnings.contains { $0.message.contains("the PDF cannot be read") })
    }
}

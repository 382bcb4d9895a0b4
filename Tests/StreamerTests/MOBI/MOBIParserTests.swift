import Foundation
import Shared
import Streamer
import Testing
import TestSupport

/// Mobipocket and KF8 books through libmobi (samples of libmobi's test suite, see
/// Tests/Fixtures/libmobi-samples): metadata, contents, text, images; DRM and damage refused.
@Suite struct MOBIParserTests {
    static func sample(_ name: String) -> String { Fixtures.path("libmobi-samples/" + name) }

    func open(_ path: String, parser: MOBIParser = MOBIParser()) async throws -> Publication {
        let asset = try AssetRetriever().retrieve(path: path)
        return try await PublicationOpener(parsers: [parser]).open(asset: asset, allowUserInteraction: false)
    }

    func text(_ publication: Publication) -> String {
        publication.readingOrder.compactMap { link in
            try? String(decoding: publication.get(link).read().get(), as: UTF8.self)
        }.joined()
    }

    /// The message a failed opening shows, or nil when it opened.
    func refusal(_ path: String, parser: MOBIParser = MOBIParser()) async -> String? {
        do {
            _ = try await open(path, parser: parser)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func anOldMobipocketBookOpensWithItsMetadataContentsTextAndImages() async throws {
        let publication = try await open(Self.sample("sample-cp1252.mobi"))
        #expect(publication.format?.kind == .mobi)
        #expect(publication.metadata.title == "Libmobi test sample")
        #expect(publication.metadata.authors.map(\.name) == ["Bartek Fabiszewski"])
        #expect(publication.metadata.publishers.map(\.name) == ["Libmobi project"])
        #expect(publication.metadata.languages == ["en-us"])
        let contents = publication.manifest.tableOfContents.compactMap(\.title)
        #expect(contents.contains { $0.contains("Main page") }, "\(contents)")
        let text = text(publication)
        #expect(text.contains("This is a sample for testing libmobi project."))
        #expect(!text.lowercased().contains("<mbp:"))
        let images = publication.manifest.resources.filter { $0.mediaType?.isBitmap ?? false }
        #expect(images.count == 3)
        for image in images {
            #expect(try publication.get(image).read().get().starts(with: [0xFF, 0xD8]), "\(image.href) is no JPEG")
        }
    }

    @Test func aKF8BookOpensAsAZW3WithItsXHTMLAndStyleSheets() async throws {
        let publication = try await open(Self.sample("sample-kf8.azw3"))
        #expect(publication.format?.kind == .azw3)
        #expect(publication.metadata.title == "font")
        let text = text(publication)
        #expect(text.contains("http://www.w3.org/1999/xhtml"))
        #expect(publication.manifest.resources.contains { $0.mediaType?.matches(.css) ?? false })
    }

    @Test func anNCXIndexBecomesTheContents() async throws {
        let publication = try await open(Self.sample("sample-ncx.mobi"))
        #expect(publication.manifest.tableOfContents.compactMap(\.title) == ["Test chapter 1", "Test chapter 2"])
        #expect(publication.readingOrder.count == 3)
    }

    @Test func kindleDRMIsRefusedNamingTheProtection() async throws {
        let v1 = await refusal(Self.sample("sample-drm-v1.mobi"))
        #expect(v1?.contains("old Mobipocket DRM (encryption type 1)") == true, "\(v1 ?? "opened")")
        let v2 = await refusal(Self.sample("sample-drm-v2.mobi"))
        #expect(v2?.contains("Mobipocket/Kindle DRM (encryption type 2)") == true, "\(v2 ?? "opened")")
        // The encryption flag of record 0 set in a clear book: refused before decoding.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: Self.sample("sample-ncx.mobi")))
        let record0 = Int(bytes[78]) << 24 | Int(bytes[79]) << 16 | Int(bytes[80]) << 8 | Int(bytes[81])
        bytes[record0 + 12] = 0
        bytes[record0 + 13] = 2
        let flagged = Fixtures.temporaryDirectory("mobi-drm") + "/flagged.mobi"
        try bytes.write(to: URL(fileURLWithPath: flagged))
        let refused = await refusal(flagged)
        #expect(refused?.contains("protected by Mobipocket/Kindle DRM") == true, "\(refused ?? "opened")")
    }

    @Test func hostileBooksEndInAClearError() async throws {
        let folder = Fixtures.temporaryDirectory("mobi-hostile")
        let whole = try Data(contentsOf: URL(fileURLWithPath: Self.sample("sample-cp1252.mobi")))
        try whole.prefix(whole.count / 3).write(to: URL(fileURLWithPath: folder + "/truncated.mobi"))
        let truncated = await refusal(folder + "/truncated.mobi")
        #expect(truncated?.contains("damaged") == true, "\(truncated ?? "opened")")

        // Wrong magic: not sniffed as MOBI at all.
        try Data(repeating: 0x41, count: 200).write(to: URL(fileURLWithPath: folder + "/wrong.mobi"))
        #expect(try FormatSniffer().sniff(file: folder + "/wrong.mobi")?.kind != .mobi)

        // Record 0 claiming 4 GiB of text and 65535 text records.
        var huge = whole
        let record0 = Int(huge[78]) << 24 | Int(huge[79]) << 16 | Int(huge[80]) << 8 | Int(huge[81])
        huge.replaceSubrange((record0 + 4)..<(record0 + 10), with: [0xFF, 0xFF, 0xFF, 0xF0, 0xFF, 0xFF])
        try huge.write(to: URL(fileURLWithPath: folder + "/huge.mobi"))
        let claimed = await refusal(folder + "/huge.mobi")
        #expect(claimed?.contains("damaged") == true, "\(claimed ?? "opened")")

        // A file past the size a book is read whole in memory.
        let tooLarge = await refusal(Self.sample("sample-cp1252.mobi"), parser: MOBIParser(maxFileSize: 64 << 10))
        #expect(tooLarge?.contains("more than the 0 MiB") == true || tooLarge?.contains("MiB") == true, "\(tooLarge ?? "opened")")
    }
}

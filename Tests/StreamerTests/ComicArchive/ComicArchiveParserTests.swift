import Foundation
import Shared
import Streamer
import Testing
import TestSupport

/// CBR, CB7 and CBT open as comic books, the same as a CBZ: pages, ComicInfo.xml, cover.
@Suite struct ComicArchiveParserTests {
    func open(_ path: String) async throws -> Publication {
        let asset = try AssetRetriever().retrieve(path: path)
        return try await PublicationOpener().open(asset: asset, allowUserInteraction: false)
    }

    @Test(arguments: ["cb7", "cbt"]) func archivesOfPicturesOpenAsComics(kind: String) async throws {
        let path = kind == "cb7" ? try ComicArchiveFixtures.sevenZip(count: 11) : try ComicArchiveFixtures.tar(count: 11)
        let publication = try await open(path)
        #expect(publication.format?.kind.rawValue == kind)
        #expect(publication.metadata.title == "Three Colours")
        #expect(publication.metadata.authors.map(\.name) == ["Ada Writer"])
        #expect(publication.metadata.belongsTo["series"]?.first?.name == "Primaries")
        // Natural order: page10 after page9, not after page1.
        #expect(publication.readingOrder.map(\.href) == (1...11).map { "page\($0).png" })
        #expect(publication.readingOrder.first?.rels.contains("cover") == true)
        let second = try publication.get(publication.readingOrder[1]).read().get()
        #expect(second == TestImages.png(width: 40, height: 60) { _, _ in TestImages.green })
    }

    @Test func aTarNamedAnythingIsSniffedByItsContent() async throws {
        let path = try ComicArchiveFixtures.tar(count: 2, name: "comic.bin")
        #expect(try FormatSniffer().sniff(file: path)?.kind == .cbt)
        #expect(try FormatSniffer().sniff(file: ComicArchiveFixtures.rar("test_read_format_rar"))?.kind == .cbr)
        #expect(try FormatSniffer().sniff(file: try ComicArchiveFixtures.sevenZip(name: "x.dat"))?.kind == .cb7)
    }

    @Test func aRARWithoutPicturesSaysWhatLecternReadsInIt() async throws {
        do {
            _ = try await open(ComicArchiveFixtures.rar("test_read_format_rar5_multiple_files_solid"))
            Issue.record("a RAR of no pictures opened")
        } catch {
            #expect("\(error)".contains("without pictures"))
        }
    }

    @Test func anEncryptedRAROpensToAClearRefusal() async throws {
        do {
            _ = try await open(ComicArchiveFixtures.rar("test_read_format_rar_encryption_data"))
            Issue.record("an encrypted RAR opened")
        } catch {
            #expect("\(error)".contains("password-protected"))
        }
    }
}

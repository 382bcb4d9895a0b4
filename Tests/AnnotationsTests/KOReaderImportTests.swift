import Annotations
import FoundationEssentials
import TestSupport
import Testing

/// KOReader's sidecar files, written here as KOReader's `dump()` writes them (`-- path`,
/// `return`, `["key"] = value,` with `%q` strings: a line break is a backslash and a line
/// break, a control character `\ddd`).
@Suite struct KOReaderImportTests {
    static let utc = TimeZone(identifier: "UTC")!

    static let epubMetadata = #"""
    -- /mnt/onboard/Books/Tale.sdr/metadata.epub.lua
    return {
        ["annotations"] = {
            [1] = {
                ["chapter"] = "Book the First",
                ["color"] = "red",
                ["datetime"] = "2024-01-02 10:11:12",
                ["drawer"] = "lighten",
                ["note"] = "A note\
    on two lines, \"quoted\", with an escape \27[2J",
                ["page"] = "/body/DocFragment[3]/body/p[2]/text().15",
                ["pageno"] = 12,
                ["pos0"] = "/body/DocFragment[3]/body/p[2]/text().15",
                ["pos1"] = "/body/DocFragment[3]/body/p[2]/text().46",
                ["text"] = "it was the age of wisdom, it was",
            },
            [2] = {
                ["chapter"] = "Book the First",
                ["color"] = "olive",
                ["datetime"] = "2024-01-03 08:00:00",
                ["datetime_updated"] = "2024-01-04 09:30:00",
                ["drawer"] = "underscore",
                ["page"] = "/body/DocFragment[3]/body/p[3]/text().0",
                ["pos0"] = "/body/DocFragment[3]/body/p[3]/text().0",
                ["pos1"] = "/body/DocFragment[3]/body/p[3]/text().21",
                ["text"] = "caf\195\169 de l'\xC3\xA9poque",
            },
            [3] = {
                ["chapter"] = "Book the Second",
                ["datetime"] = "2024-01-05 12:00:00",
                ["page"] = "/body/DocFragment[4]/body/p[1]/text().0",
                ["text"] = "in Book the Second",
            },
            [4] = {
                ["chapter"] = "Book the Second",
                ["color"] = "gray",
                ["datetime"] = "2024-01-06 12:00:00",
                ["drawer"] = "strikeout",
                ["page"] = "/body/DocFragment[4]/body/p[5]/text().3",
                ["pos0"] = "/body/DocFragment[4]/body/p[5]/text().3",
                ["pos1"] = "/body/DocFragment[4]/body/p[5]/text().20",
                ["text"] = [==[a [[long]] quote]==],
            },
        },
        ["doc_props"] = {
            ["authors"] = "Charles Dickens\
    Hablot K. Browne",
            ["identifiers"] = "urn:isbn:9780141439600\
    uuid:1234",
            ["language"] = "en",
            ["title"] = "A Tale of Two Cities",
        },
        ["partial_md5_checksum"] = "0123456789abcdef0123456789abcdef",
        ["percent_finished"] = 0.25,
        ["summary"] = {
            ["status"] = "reading",
        },
    }
    """#

    @Test func epubAnnotationsBecomeHighlightsWithXPointersQuotesAndNotes() throws {
        let publications = try AnnotationImporter.read(Data(Self.epubMetadata.utf8), fileName: "metadata.epub.lua", timeZone: Self.utc)
        let publication = try #require(publications.first)
        #expect(publication.title == "A Tale of Two Cities")
        #expect(publication.authors == ["Charles Dickens", "Hablot K. Browne"])
        #expect(publication.identifier == "urn:isbn:9780141439600")
        #expect(publication.koreaderDocumentDigest == "0123456789abcdef0123456789abcdef")
        #expect(publication.annotations.count == 3)
        #expect(publication.skipped.count == 1 && publication.skipped[0].contains("page bookmark"))
        let first = publication.annotations[0]
        #expect(first.target.quote == TextQuote(exact: "it was the age of wisdom, it was"))
        #expect(first.note == "A note\non two lines, \"quoted\", with an escape \u{1B}[2J")
        #expect(first.target.xpointerStart == "/body/DocFragment[3]/body/p[2]/text().15")
        #expect(first.target.xpointerEnd == "/body/DocFragment[3]/body/p[2]/text().46")
        #expect(first.target.headings == ["Book the First"])
        #expect(first.target.href == "" && first.target.page == nil)
        #expect(first.color == .pink && first.style == .solid)
        #expect(first.created == Date(timeIntervalSince1970: 1_704_190_272))
        let second = publication.annotations[1]
        #expect(second.target.quote?.exact == "café de l'époque")
        #expect(second.color == .green && second.style == .underline)
        #expect(second.modified == Date(timeIntervalSince1970: 1_704_360_600))
        let fourth = publication.annotations[2]
        #expect(fourth.target.quote?.exact == "a [[long]] quote")
        #expect(fourth.color == .yellow && fourth.style == .strikethrough)
        #expect(KOReaderAnnotations.spineIndex(ofXPointer: first.target.xpointerStart ?? "") == 2)
    }

    @Test func importingTheSameFileTwiceGivesTheSameIds() throws {
        let once = try AnnotationImporter.read(Data(Self.epubMetadata.utf8), fileName: "metadata.epub.lua", timeZone: Self.utc)
        let twice = try AnnotationImporter.read(Data(Self.epubMetadata.utf8), fileName: "metadata.epub.lua", timeZone: Self.utc)
        #expect(once[0].annotations.map(\.id) == twice[0].annotations.map(\.id))
        #expect(Set(once[0].annotations.map(\.id)).count == 3)
    }

    @Test func localTimesAreReadInTheGivenZone() throws {
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        let publication = try AnnotationImporter.read(Data(Self.epubMetadata.utf8), fileName: "metadata.epub.lua", timeZone: paris)[0]
        #expect(publication.annotations[0].created == Date(timeIntervalSince1970: 1_704_190_272 - 3600))
    }

    @Test func theQuotesLandOnTheSamePassagesOfTheChapter() throws {
        let chapter = "It was the best of times, it was the worst of times, it was the age of wisdom, it was the age of foolishness.\n"
            + "Le café de l'époque était plein."
        let publication = try AnnotationImporter.read(Data(Self.epubMetadata.utf8), fileName: "metadata.epub.lua", timeZone: Self.utc)[0]
        let text = AnchoringText(chapter)
        let characters = Array(chapter)
        for annotation in publication.annotations.prefix(2) {
            let result = QuoteAnchoring.locate(annotation.target, in: text)
            guard case .reanchored(let range) = result else {
                Issue.record("\(annotation.target.quote?.exact ?? "") was not found: \(result)")
                continue
            }
            #expect(String(characters[range]) == annotation.target.quote?.exact)
        }
    }

    @Test func pdfPositionsArePages() throws {
        let metadata = """
        -- /books/paper.sdr/metadata.pdf.lua
        return {
            ["annotations"] = {
                [1] = {
                    ["color"] = "blue",
                    ["datetime"] = "2024-02-01 10:00:00",
                    ["drawer"] = "lighten",
                    ["page"] = 5,
                    ["pboxes"] = { [1] = { ["h"] = 12.5, ["w"] = 200, ["x"] = 72, ["y"] = 400, }, },
                    ["pos0"] = { ["page"] = 5, ["rotation"] = 0, ["x"] = 72.25, ["y"] = 400, ["zoom"] = 1.5, },
                    ["pos1"] = { ["page"] = 5, ["rotation"] = 0, ["x"] = 272, ["y"] = 412.5, ["zoom"] = 1.5, },
                    ["text"] = "a sentence on page five",
                },
            },
            ["doc_props"] = { ["title"] = "Paper", },
        }
        """
        let annotation = try #require(try AnnotationImporter.read(Data(metadata.utf8), fileName: "metadata.pdf.lua", timeZone: Self.utc)[0].annotations.first)
        #expect(annotation.target.page == 5)
        #expect(annotation.target.type == "application/pdf")
        #expect(annotation.target.xpointerStart == nil)
        #expect(annotation.color == .blue)
        #expect(annotation.target.quote?.exact == "a sentence on page five")
    }

    @Test func filesFromBefore2024KeepHighlightsInTheHighlightTable() throws {
        let metadata = """
        return {
            ["highlight"] = {
                [7] = {
                    [1] = {
                        ["chapter"] = "One",
                        ["datetime"] = "2019-05-06 07:08:09",
                        ["drawer"] = "lighten",
                        ["pos0"] = "/body/DocFragment[2]/body/p[4]/text().0",
                        ["pos1"] = "/body/DocFragment[2]/body/p[4]/text().9",
                        ["text"] = "old words",
                    },
                },
            },
        }
        """
        let annotation = try #require(try AnnotationImporter.read(Data(metadata.utf8), fileName: "metadata.epub.lua", timeZone: Self.utc)[0].annotations.first)
        #expect(annotation.target.quote?.exact == "old words")
        #expect(annotation.target.xpointerStart == "/body/DocFragment[2]/body/p[4]/text().0")
        #expect(annotation.target.headings == ["One"])
    }

    @Test func aSdrFolderIsReadThroughItsMetadataFile() throws {
        let folder = Fixtures.temporaryDirectory("koreader") + "/Tale.sdr"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(Self.epubMetadata.utf8).write(to: URL(fileURLWithPath: folder + "/metadata.epub.lua"))
        let publications = try AnnotationImporter.read(contentsOf: folder, timeZone: Self.utc)
        #expect(publications.first?.annotations.count == 3)
    }
}

import Annotations
import FoundationEssentials
import Shared
import Testing

@Suite struct AnnotationExportTests {
    let generated = Date(timeIntervalSince1970: 1_764_000_000)

    @Test func lecternJSONReadsBackEveryFieldTombstonesAndSealedQuotesIncluded() throws {
        let publication = AnnotationSamples.publication()
        let first = AnnotationExporter.export([publication], as: .json, generated: generated)
        let imported = try AnnotationImporter.read(first, fileName: "export.json")
        #expect(imported == [publication])
        #expect(AnnotationExporter.export(imported, as: .json, generated: generated) == first)
    }

    @Test func readiumSetExportedImportedAndExportedAgainIsTheSame() throws {
        let first = AnnotationExporter.export([AnnotationSamples.publication()], as: .readium, generated: generated)
        let imported = try AnnotationImporter.read(first, fileName: "book.annotation")
        #expect(imported.count == 1)
        #expect(imported[0].annotations.count == 4, "the tombstone is not exported")
        let again = AnnotationExporter.export(imported, as: .readium, generated: generated)
        #expect(AnnotationSamples.text(again) == AnnotationSamples.text(first))
    }

    @Test func readiumSetUsesTheSpecificationsNames() throws {
        let data = AnnotationExporter.export([AnnotationSamples.publication()], as: .readium, generated: generated)
        let root = try JSONParser.parse(Array(data))
        #expect(root["@context"]?.string == "http://www.w3.org/ns/anno.jsonld")
        #expect(root["type"]?.string == "AnnotationSet")
        #expect(root["id"]?.string?.hasPrefix("urn:uuid:") == true)
        #expect(root["generated"]?.string == "2025-11-24T16:00:00Z")
        #expect(root["about"]?["dc:identifier"]?.strings == ["urn:isbn:9780141439600"])
        #expect(root["about"]?["dc:title"]?.string == "A Tale of Two Cities")
        #expect(root["about"]?["dc:creator"]?.strings == ["Charles Dickens"])
        let items = try #require(root["items"]?.array)
        #expect(items.count == 4)
        let full = items[0]
        #expect(full["id"]?.string == "urn:uuid:0b7e4c1e-2f4a-4d8e-9c3b-5a6f7e8d9c0b")
        #expect(full["type"]?.string == "Annotation")
        #expect(full["motivation"]?.string == "commenting")
        #expect(full["created"]?.string == "2023-11-14T22:13:20.125Z")
        #expect(full["modified"]?.string == "2023-11-15T22:13:20.5Z")
        #expect(full["target"]?["source"]?.string == "OEBPS/ch1.xhtml")
        let selectors = try #require(full["target"]?["selector"]?.array)
        #expect(selectors.map { $0["type"]?.string } == ["TextQuoteSelector", "FragmentSelector", "CssSelector", "CssSelector", "ProgressionSelector"])
        #expect(selectors[0]["exact"]?.string == "It was the *best* of times,\nit was")
        #expect(selectors[0]["prefix"]?.string == "Chapter 1\n")
        #expect(selectors[0]["suffix"]?.string == " the worst of times")
        #expect(selectors[1]["conformsTo"]?.string == "http://www.idpf.org/epub/linking/cfi/epub-cfi.html")
        #expect(selectors[1]["value"]?.string == "epubcfi(/6/4!/4/2[c1]/4,/1:0,/1:31)")
        #expect(selectors[2]["value"]?.string == "#c1 > p:nth-child(2)")
        #expect(selectors[2]["refinedBy"]?["type"]?.string == "TextPositionSelector")
        #expect(selectors[2]["refinedBy"]?["start"]?.int == 0 && selectors[2]["refinedBy"]?["end"]?.int == 31)
        #expect(selectors[3]["refinedBy"]?["start"]?.int == 120 && selectors[3]["refinedBy"]?["end"]?.int == 151)
        #expect(selectors[4]["value"]?.double == 0.25)
        #expect(full["target"]?["meta"]?["headings"]?.array?.map { $0["txt"]?.string } == ["Part One", "Chapter 1"])
        #expect(full["target"]?["meta"]?["headings"]?.array?.map { $0["level"]?.int } == [1, 2])
        let body = try #require(full["body"])
        #expect(body["type"]?.string == "TextualBody")
        #expect(body["value"]?.string == "Mine, with an escape \u{1B}[31mred\u{1B}[0m and\n# a heading")
        #expect(body["format"]?.string == "text/markdown")
        #expect(body["color"]?.string == "green")
        #expect(body["highlight"]?.string == "underline")
        #expect(body["tags"]?.strings == ["theme", "dickens"])
        // The withheld quote: no TextQuoteSelector, the note kept.
        let withheld = items[2]
        #expect(withheld["target"]?["selector"]?.array?.contains { $0["type"]?.string == "TextQuoteSelector" } == false)
        #expect(withheld["body"]?["value"]?.string == "My own words, always exported")
        // The PDF page: an RFC 8118 fragment and meta.page.
        let page = items[3]
        #expect(page["target"]?["selector"]?.array?.first?["value"]?.string == "page=3")
        #expect(page["target"]?["meta"]?["page"]?.string == "3")
        #expect(!AnnotationSamples.text(data).contains("\u{1B}"), "the escape is written as \\u001b")
    }

    @Test func readiumImportKeepsTheLocatorsAndTheBody() throws {
        let data = AnnotationExporter.export([AnnotationSamples.publication()], as: .readium, generated: generated)
        let publication = try #require(try AnnotationImporter.read(data, fileName: "x.annotation").first)
        #expect(publication.identifier == "urn:isbn:9780141439600")
        #expect(publication.authors == ["Charles Dickens"])
        let original = AnnotationSamples.publication().annotations[0]
        let full = publication.annotations[0]
        #expect(full.id == original.id)
        #expect(full.target.quote == original.target.quote)
        #expect(full.target.cfi == original.target.cfi)
        #expect(full.target.textRange == 120..<151)
        #expect(full.target.cssSelector == original.target.cssSelector && full.target.cssTextRange == 0..<31)
        #expect(full.target.progression == 0.25)
        #expect(full.target.headings == ["Part One", "Chapter 1"])
        #expect(full.color == .green && full.style == .underline && full.tags == ["theme", "dickens"])
        #expect(full.note == original.note)
        #expect(full.created == original.created && full.modified == original.modified)
        #expect(publication.annotations[3].target.page == 3)
    }

    @Test func readiumDatesWithOffsetsOrFractionsAreReadAsTheSameInstant() throws {
        let set = #"""
        {"type": "AnnotationSet", "generated": "2024-05-06T07:08:09Z", "items": [
          {"id": "a", "type": "Annotation", "created": "2024-01-02T12:11:12.5+02:00", "modified": "2024-01-02T05:11:12-0500", "target": {"source": "c.xhtml"}},
          {"id": "b", "type": "Annotation", "created": "2024-01-02", "target": {"source": "c.xhtml"}},
          {"id": "c", "type": "Annotation", "created": "2024-13-02T00:00:00Z", "target": {"source": "c.xhtml"}}
        ]}
        """#
        let annotations = try AnnotationImporter.read(Data(set.utf8), fileName: "x.annotation")[0].annotations
        #expect(annotations[0].created == Date(timeIntervalSince1970: 1_704_190_272.5))
        #expect(annotations[0].modified == Date(timeIntervalSince1970: 1_704_190_272))
        #expect(annotations[1].created == Date(timeIntervalSince1970: 1_704_153_600))
        #expect(annotations[2].created == Date(timeIntervalSince1970: 1_714_979_289), "an impossible date: the set's own")
    }

    @Test func markdownGroupsByChapterQuotesAsBlockQuotesAndShowsControlCharacters() {
        let text = AnnotationSamples.text(AnnotationExporter.export([AnnotationSamples.publication()], as: .markdown, generated: generated))
        #expect(text.hasPrefix("# A Tale of Two Cities\n\nby Charles Dickens · urn:isbn:9780141439600 · 4 annotations, exported from Lectern on 2025-11-24\n"))
        #expect(text.contains("## Part One › Chapter 1\n\n> It was the \\*best\\* of times,\n> it was\n\nMine, with an escape ^[[31mred^[[0m and\n# a heading\n\n"))
        #expect(text.contains("*green underline · [OEBPS/ch1.xhtml, 25 %](<OEBPS/ch1.xhtml#epubcfi(/6/4!/4/2[c1]/4,/1:0,/1:31)>) · 2023-11-14 · #theme #dickens*"))
        #expect(text.contains("## Part One › Chapter 2\n\n> *(quote withheld)*\n\n"))
        #expect(text.contains("> **Note:** The quote of 1 annotation was left out"))
        #expect(text.contains("## Appendix\n\nA page-level note\n\n*purple highlight · [book.pdf, page 3](<book.pdf#page=3>)"))
        #expect(!text.contains("gone") && !text.contains("\u{1B}"))
        #expect(text.ranges(of: "## Part One › Chapter 2").count == 1, "one section per chapter")
    }

    @Test func markdownEscapesMarkupInQuotesOnlyWhereItWouldBeMarkup() {
        var publication = AnnotationSamples.publication()
        publication.annotations = [Annotation(target: AnnotationTarget(href: "a.xhtml", quote: TextQuote(exact: "# C# and F#\n- a_b <i> 1+1=2")),
                                              created: AnnotationSamples.created)]
        let text = AnnotationSamples.text(AnnotationExporter.export([publication], as: .markdown, generated: generated))
        #expect(text.contains("> \\# C# and F#\n> \\- a\\_b \\<i\\> 1+1=2\n"))
    }

    @Test func orgHasAHeadingPerChapterAndAnnotationWithProperties() {
        let text = AnnotationSamples.text(AnnotationExporter.export([AnnotationSamples.publication()], as: .org, generated: generated))
        #expect(text.hasPrefix("#+TITLE: A Tale of Two Cities\n#+DATE: [2025-11-24 Mon]\n\n* A Tale of Two Cities\n"))
        #expect(text.contains("** Part One › Chapter 1\n*** It was the *best* of times, it was  :theme:dickens:\n:PROPERTIES:\n:ID: 0b7e4c1e-2f4a-4d8e-9c3b-5a6f7e8d9c0b\n:COLOR: green\n:STYLE: underline\n:CREATED: [2023-11-14 Tue 22:13]\n"))
        #expect(text.contains("#+BEGIN_QUOTE\nIt was the *best* of times,\nit was\n#+END_QUOTE\nMine, with an escape ^[[31mred^[[0m and\n# a heading\n"))
        #expect(text.contains(":LOCATION: book.pdf, page 3\n"))
        #expect(!text.contains("\u{1B}"))
    }

    @Test func orgEscapesLinesThatWouldBeHeadings() {
        var publication = AnnotationSamples.publication()
        publication.annotations = [Annotation(target: AnnotationTarget(href: "a.xhtml", quote: TextQuote(exact: "* not a heading\n#+END_QUOTE")),
                                              note: "*** nor this", created: AnnotationSamples.created)]
        let text = AnnotationSamples.text(AnnotationExporter.export([publication], as: .org, generated: generated))
        #expect(text.contains("#+BEGIN_QUOTE\n,* not a heading\n,#+END_QUOTE\n#+END_QUOTE\n,*** nor this\n"))
    }
}

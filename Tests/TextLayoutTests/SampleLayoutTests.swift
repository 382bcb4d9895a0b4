import Foundation
import Shared
import Testing
@testable import TextLayout

/// The engine on real publications of the sample corpus, at several widths.
@Suite struct SampleLayoutTests {
    static let widths = [12, 23, 40, 67, 80, 131]

    /// Every resource of the reading order, laid out at every width: no line is wider than
    /// the width, spans agree with the width table, nothing fails to load.
    @Test(arguments: [
        "epub/idpf-wasteland.epub", "epub/idpf-kusamakura-preview.epub", "epub/idpf-regime-anticancer-arabic.epub",
        "epub/idpf-childrens-literature.epub", "epub/epubjs-alice.epub", "epub/idpf-moby-dick.epub",
        "epub/idpf-hefty-water.epub", "epub/w3c-cnt-mathml-support.epub", "epub/debian-live-manual.en.epub",
        "epub/idpf-sous-le-vent.epub", "webpub/readium-mobydick.webpub", "cbz/derived-page-blanche-excerpt.cbz",
    ])
    func everyResourceFitsAtEveryWidth(_ sample: String) async throws {
        let publication = try await openSample(sample)
        defer { publication.close() }
        let loader = ContentDocumentLoader(publication: publication)
        var lines = 0
        // Long books (Moby-Dick, the Debian manual: 144 and 190 resources) at fewer widths, to
        // keep the debug-build test run short.
        let widths = publication.readingOrder.count > 40 ? [17, 80] : Self.widths
        for link in publication.readingOrder {
            let document = try loader.load(link)
            for width in widths {
                let laidOut = LayoutEngine.layout(document, options: LayoutOptions(width: width, justify: width % 2 == 0))
                let problems = layoutProblems(laidOut)
                #expect(problems.isEmpty, "\(link.href) at \(width): \(problems.prefix(3))")
                lines += laidOut.lineCount
            }
        }
        #expect(lines > 0)
    }

    @Test func wastelandNoteReferencesOpenTheirRearnotes() async throws {
        let publication = try await openSample("epub/idpf-wasteland.epub")
        defer { publication.close() }
        let document = try ContentDocumentLoader(publication: publication).load(publication.readingOrder[0])
        let references = document.links.filter(\.isNoteReference)
        #expect(references.count == 50)
        let resolver = NoteResolver(publication: publication)
        let first = try #require(resolver.note(for: references[0], in: document))
        #expect(first.plainText.contains("Cf. Ezekiel"))
        for reference in references {
            let note = resolver.note(for: reference, in: document)
            #expect(note?.isEmpty == false, "\(reference.href)")
        }
        let laidOut = LayoutEngine.layout(document, options: LayoutOptions(width: 60))
        #expect(laidOut.textLines.contains("April is the cruellest month, breeding"))
        let marked = laidOut.lines.flatMap(\.spans).filter { $0.style.role == .noteReference }
        #expect(marked.count == 50)
    }

    @Test func kusamakuraRubyAndJapaneseBreaking() async throws {
        let publication = try await openSample("epub/idpf-kusamakura-preview.epub")
        defer { publication.close() }
        let loader = ContentDocumentLoader(publication: publication)
        let chapter = try loader.load(href: "EPUB/xhtml/一.xhtml")
        let laidOut = LayoutEngine.layout(chapter, options: LayoutOptions(width: 40))
        #expect(laidOut.textLines.contains { $0.hasPrefix("山路（やまみち）を登りながら") })
        let annotations = laidOut.lines.flatMap(\.spans).filter { $0.style.role == .rubyAnnotation }
        #expect(annotations.count > 100)
        for width in [10, 21, 40] {
            let narrow = LayoutEngine.layout(chapter, options: LayoutOptions(width: width))
            for line in narrow.lines where line.kind == .text {
                let text = line.text.drop { $0 == " " }
                #expect(!(text.first.map { "、。」）".contains($0) } ?? false), "width \(width): \(line.text)")
                #expect(!(text.last.map { "「（".contains($0) } ?? false), "width \(width): \(line.text)")
            }
        }
    }

    @Test func arabicBookIsRightToLeftAndRightAligned() async throws {
        let publication = try await openSample("epub/idpf-regime-anticancer-arabic.epub")
        defer { publication.close() }
        let document = try ContentDocumentLoader(publication: publication).load(href: "EPUB/Content/C_content.xhtml")
        let laidOut = LayoutEngine.layout(document, options: LayoutOptions(width: 50))
        let text = laidOut.lines.filter { $0.kind == .text }
        #expect(text.count > 50)
        #expect(text.allSatisfy { $0.direction == .rightToLeft })
        #expect(text.filter { $0.width == 50 }.count > text.count / 2)
        // The heading "ما هو السرطان؟" reads, left to right on screen, with the question mark first.
        #expect(laidOut.textLines.contains { $0.unshaped.hasSuffix("؟ناطرسلا وه ام") })
    }

    @Test func childrensLiteratureListsAreNumberedAndNested() async throws {
        let publication = try await openSample("epub/idpf-childrens-literature.epub")
        defer { publication.close() }
        let loader = ContentDocumentLoader(publication: publication)
        var texts: [String] = []
        for link in publication.readingOrder {
            texts += LayoutEngine.layout(try loader.load(link), options: LayoutOptions(width: 70)).textLines
        }
        #expect(texts.contains("1. SECTION IV FAIRY STORIES—MODERN FANTASTIC TALES"))
        #expect(texts.contains("   1.  BIBLIOGRAPHY"))
        #expect(texts.contains("       1. 190 A FOUR-LEAVED CLOVER"))
    }

    @Test func aliceImagesBecomePlaceholders() async throws {
        let publication = try await openSample("epub/epubjs-alice.epub")
        defer { publication.close() }
        let loader = ContentDocumentLoader(publication: publication)
        var images = 0
        for link in publication.readingOrder {
            let laidOut = LayoutEngine.layout(try loader.load(link), options: LayoutOptions(width: 60))
            images += laidOut.lines.flatMap(\.spans).filter { $0.style.role == .image && $0.text.hasPrefix("[image: ") }.count
        }
        #expect(images == 27)  // every <img> of the book
    }

    @Test func comicPagesAreImageLines() async throws {
        let publication = try await openSample("cbz/derived-page-blanche-excerpt.cbz")
        defer { publication.close() }
        let document = try ContentDocumentLoader(publication: publication).load(publication.readingOrder[0])
        #expect(document.plainText.hasPrefix("[image: "))
    }
}

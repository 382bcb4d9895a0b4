import Foundation
import Shared
@testable import Streamer
import Testing
import TestSupport

/// The EPUB parser on the real samples of `Tests/Fixtures/Samples/epub`.
@Suite struct EPUBParserSampleTests {
    @Test func claimsOnlyEPUB() throws {
        let path = Fixtures.sample("epub/idpf-wasteland.epub")
        let fetcher = try ArchiveFetcher(path: path)
        let asset = Asset(name: "w.epub", location: path, format: Format(kind: .cbz), fetcher: fetcher)
        #expect(try EPUBParser().parse(asset: asset, fetcher: fetcher, warnings: nil) == nil)
    }

    @Test func mobyDick() throws {
        let book = try EPUBTestSupport.parseSample("epub/idpf-moby-dick.epub")
        #expect(book.metadata.title == "Moby-Dick")
        #expect(book.metadata.authors.map(\.name) == ["Herman Melville"])
        #expect(book.metadata.authors.first?.localizedSortAs?.string == "MELVILLE, HERMAN")
        #expect(book.metadata.publishers.map(\.name) == ["Harper & Brothers, Publishers"])
        #expect(book.metadata.languages == ["en-US"])
        #expect(book.metadata.conformsTo == [Manifest.Profile.epub])
        // 144 itemrefs: the cover and the long table of contents are linear="no", so, as in
        // Readium, they are resources and the reading order holds the 142 others.
        #expect(book.manifest.readingOrder.count == 142)
        #expect(book.manifest.readingOrder.first?.href == "OPS/titlepage.xhtml")
        #expect(book.manifest.readingOrder.last?.href == "OPS/copyright.xhtml")
        #expect(book.manifest.resources.contains { $0.href == "OPS/cover.xhtml" })
        #expect(book.manifest.resources.contains { $0.href == "OPS/toc.xhtml" && $0.hasRel("contents") })
        #expect(book.manifest.tableOfContents.count == 141)
        #expect(book.manifest.tableOfContents.first?.title == "Moby-Dick")
        #expect(book.manifest.subcollectionLinks("landmarks").count == 4)
        #expect(book.manifest.resources.filter { $0.mediaType?.essence == "application/vnd.ms-opentype" }.count == 4)
        #expect(try book.read("OPS/chapter_001.xhtml").count > 1000)
    }

    @Test func debianLiveManual() throws {
        let book = try EPUBTestSupport.parseSample("epub/debian-live-manual.en.epub")
        #expect(book.metadata.title == "Live Systems Manual")
        #expect(book.metadata.authors.map(\.name) == ["Live Systems Project <debian-live@lists.debian.org>"])
        #expect(book.metadata.languages == ["en"])
        #expect(book.metadata.published == "2015-09-22")
        // unique-identifier="EPB-UUID" designates a commented-out identifier.
        #expect(book.metadata.identifier == "debian-live.alioth.debian.org/manual/epub/live-manual.en.epub")
        #expect(book.warned("EPB-UUID"))
        // mimetype is the last entry and ends with a line feed.
        #expect(book.warned("`mimetype` is not the first entry"))
        #expect(book.warned("white space around"))
        #expect(book.warned("carry a #fragment"))

        let order = book.manifest.readingOrder
        #expect(order.count == 190)
        #expect(order.first?.href == "OEBPS/index.xhtml")
        // The fragment stays in the reading order (a place to go to); the resource is found without it.
        #expect(order[5].href == "OEBPS/about-manual.xhtml#o8")
        #expect(try book.read(order[5].href) == book.read("OEBPS/about-manual.xhtml"))
        #expect(!book.manifest.resources.contains { $0.href.contains("#") })
        // EPUB 2: the table of contents comes from the NCX.
        #expect(book.manifest.tableOfContents.count == 2)
        #expect(book.manifest.tableOfContents[1].title == "Live Systems Manual")
        #expect(book.manifest.tableOfContents[1].children.count == 25)
    }

    @Test func childrensLiterature() throws {
        let book = try EPUBTestSupport.parseSample("epub/idpf-childrens-literature.epub")
        #expect(book.metadata.title == "Children's Literature")
        #expect(book.metadata.subtitle == "A Textbook of Sources for Teachers and Teacher-Training Classes")
        #expect(book.metadata.authors.map(\.name) == ["Charles Madison Curry", "Erle Elsworth Clippinger"])
        #expect(book.metadata.authors.map { $0.localizedSortAs?.string } == ["Curry, Charles Madison", "Clippinger, Erle Elsworth"])
        #expect(book.metadata.subjects.map(\.name) == ["Children -- Books and reading", "Children's literature -- Study and teaching"])
        #expect(book.metadata.modified == "2010-02-17T04:39:13Z")
        #expect(book.metadata.published == "2008-05-20")
        #expect(book.manifest.readingOrder.map(\.href) == ["EPUB/cover.xhtml", "EPUB/nav.xhtml", "EPUB/s04.xhtml"])
        // The nav document is in the spine: it keeps its `contents` rel and `scripted` property.
        #expect(book.manifest.readingOrder[1].hasRel("contents"))
        #expect(book.manifest.readingOrder[1].properties.contains == ["js"])
        #expect(book.manifest.link(withRel: "cover")?.href == "EPUB/images/cover.png")

        let toc = book.manifest.tableOfContents
        #expect(toc.count == 1)
        #expect(toc[0].title == "SECTION IV FAIRY STORIES—MODERN FANTASTIC TALES")
        #expect(toc[0].href == "EPUB/s04.xhtml#pgepubid00492")
        #expect(toc[0].children.count == 11)
        // <span> headings: not linkable, href "#" as in Readium, with their entries as children.
        let heading = toc[0].children[2]
        #expect(heading.title == "Abram S. Isaacs")
        #expect(heading.href == "#")
        #expect(heading.children.first?.title == "190 A FOUR-LEAVED CLOVER")
        // The hidden sub-list is kept, titles whitespace-normalised.
        #expect(heading.children.first?.children.map(\.title) == [
            "I. The Rabbi and the Diadem", "II. Friendship", "III. True Charity", "IV. An Eastern Garden",
        ])

        let pages = book.manifest.subcollectionLinks("pageList")
        #expect(pages.count == 92)
        #expect(pages.first?.title == "169")
        #expect(pages.first?.href == "EPUB/s04.xhtml#Page_169")
        let landmarks = book.manifest.subcollectionLinks("landmarks")
        #expect(landmarks.map(\.href) == ["EPUB/nav.xhtml#toc", "EPUB/s04.xhtml#pgepubid00498"])
        #expect(landmarks.map(\.rels) == [["toc"], ["bodymatter"]])
    }

    @Test func wastelandHasNavAndNCX() throws {
        let book = try EPUBTestSupport.parseSample("epub/idpf-wasteland.epub")
        #expect(book.metadata.title == "The Waste Land")
        #expect(book.metadata.authors.map(\.name) == ["T.S. Eliot"])
        #expect(book.metadata.identifier == "code.google.com.epub-samples.wasteland-basic")
        #expect(book.manifest.readingOrder.map(\.href) == ["EPUB/wasteland-content.xhtml"])
        let nav = try #require(book.manifest.resources.first(withRel: "contents"))
        #expect(nav.href == "EPUB/wasteland-nav.xhtml")
        let ncx = try #require(book.manifest.resources.first { $0.mediaType?.matches(.ncx) == true })
        #expect(ncx.href == "EPUB/wasteland.ncx")
        #expect(book.manifest.tableOfContents.map(\.title).prefix(2) == ["I. THE BURIAL OF THE DEAD", "II. A GAME OF CHESS"])
        #expect(book.manifest.tableOfContents.first?.href == "EPUB/wasteland-content.xhtml#ch1")

        // The NCX alone gives the same entries: the fallback is usable on this book too.
        let ncxTOC = NCXParser(data: try book.read(ncx.href), href: ncx.href, warnings: nil).tableOfContents
        #expect(ncxTOC.map(\.href) == book.manifest.tableOfContents.map(\.href))
        #expect(book.warnings.isEmpty)
    }

    @Test func regimeAnticancerArabicIsRightToLeft() throws {
        let book = try EPUBTestSupport.parseSample("epub/idpf-regime-anticancer-arabic.epub")
        #expect(book.metadata.readingProgression == .rtl)
        #expect(book.metadata.languages == ["ar"])
        #expect(book.metadata.localizedTitle?.string(forLanguage: "ar") == "السرطان من للوقاية الصحيح الغذائي النظام")
        #expect(book.metadata.localizedTitle?.string(forLanguage: "fr") == "Le Vrai Régime anti-cancer")
        #expect(book.metadata.authors.count == 2)
        #expect(book.metadata.authors.first?.localizedName.string(forLanguage: "fr") == "Pr David Khayat")
        #expect(book.manifest.readingOrder.count == 3)
        #expect(book.manifest.readingOrder.first?.href == "EPUB/Content/A_cover.xhtml")
        #expect(book.manifest.tableOfContents.count == 3)
    }

    @Test func kusamakuraRightToLeftWithNonASCIINames() throws {
        let book = try EPUBTestSupport.parseSample("epub/idpf-kusamakura-preview.epub")
        #expect(book.metadata.readingProgression == .rtl)
        #expect(book.metadata.localizedTitle?.string(forLanguage: "ja-JP") == "草枕")
        #expect(book.metadata.localizedTitle?.string(forLanguage: "en") == "Kusamakura")
        #expect(book.metadata.authors.first?.localizedName.string(forLanguage: "en") == "Natsume, Sōseki")
        #expect(book.metadata.narrators.map { $0.localizedName.string(forLanguage: "ja") } == ["持田 怜香"])
        #expect(book.metadata.contributors.contains { $0.roles == ["dtc"] })
        #expect(book.metadata.publishers.map(\.name) == ["青空文庫"])
        #expect(book.metadata.duration == 2015.025)
        #expect(book.metadata.languages == ["ja-jp"])

        // The table of contents (目次) is linear="no": a resource, not in the reading order.
        let order = book.manifest.readingOrder
        #expect(order.map(\.path) == ["EPUB/xhtml/表紙.xhtml", "EPUB/xhtml/一.xhtml"])
        #expect(order[1].href == "EPUB/xhtml/%E4%B8%80.xhtml")
        let text = String(decoding: try book.read(order[1].href), as: UTF8.self)
        #expect(text.contains("惜しい事に今の詩を作る人も"))
        #expect(book.manifest.resources.first(withRel: "contents")?.path == "EPUB/xhtml/目次.xhtml")
        #expect(try book.read("EPUB/images/%E5%A4%8F%E7%9B%AE%E6%BC%B1%E7%9F%B3.jpg").starts(with: [0xFF, 0xD8]))
        #expect(book.manifest.tableOfContents.first?.href == "EPUB/xhtml/%E4%B8%80.xhtml")
        #expect(book.warned("non-ASCII"))

        // The media-overlay audio is declared but absent: a warning, not a failure.
        #expect(book.warnings.contains { $0.href == "EPUB/audio/fmse004b.mp3" && $0.message.contains("missing") })
        #expect(!book.manifest.resources.contains { $0.href == "EPUB/audio/fmse004b.mp3" })
    }

    @Test func sousLeVentIsFixedLayout() throws {
        let book = try EPUBTestSupport.parseSample("epub/idpf-sous-le-vent.epub")
        #expect(book.metadata.title == "Sous le vent")
        #expect(book.metadata.authors.map(\.name) == ["Jean-Bernard Pouy"])
        #expect(book.metadata.illustrators.map(\.name) == ["Joe G. Pinelli"])
        #expect(book.metadata.languages == ["fr"])
        let presentation = try #require(book.metadata.otherMetadata["presentation"]?.object)
        #expect(presentation["layout"] == .string("fixed"))
        #expect(presentation["orientation"] == .string("portrait"))
        #expect(presentation["spread"] == .string("auto"))
        let order = book.manifest.readingOrder
        #expect(order.count == 13)
        #expect(order.prefix(2).map(\.properties.page) == ["right", "left"])
        #expect(order.first?.properties.contains == ["svg"])
        #expect(book.manifest.link(withRel: "cover") != nil)
    }

    @Test func packageMultipleUsesTheFirstRootfile() throws {
        // container.xml lists FOO/BAR/, OEBPS/ then EPUB/; the first one says "Test passes".
        let book = try EPUBTestSupport.parseSample("epub/w3c-ocf-package_multiple.epub")
        #expect(book.metadata.title == "ocf-package_multiple")
        #expect(book.manifest.readingOrder.map(\.href) == ["FOO/BAR/content_001.xhtml"])
        let text = String(decoding: try book.read("FOO/BAR/content_001.xhtml"), as: UTF8.self)
        #expect(text.contains("Test passes"))
        #expect(book.manifest.tableOfContents.first?.href == "FOO/BAR/content_001.xhtml")
    }

    @Test func alternativeRootfileIsIgnored() throws {
        let book = try EPUBTestSupport.parseSample("epub/epubcheck-epub2-ocf-metainf-container-alternative-valid.epub")
        #expect(book.metadata.title == "Minimal EPUB 2.0")
        #expect(book.manifest.readingOrder.map(\.href) == ["OPS/content_001.xhtml"])
        #expect(book.manifest.tableOfContents.map(\.title) == ["Loomings"])
    }

    @Test func fileNameWithSpace() throws {
        let book = try EPUBTestSupport.parseSample("epub/epubcheck-epub2-ocf-filename-with-space-warning.epub")
        #expect(book.manifest.readingOrder.map(\.href) == ["OPS/content%20001.xhtml"])
        #expect(book.manifest.readingOrder.first?.path == "OPS/content 001.xhtml")
        #expect(try book.read("OPS/content%20001.xhtml").count > 100)
        #expect(book.warned("percent-encoded"))
    }

    @Test func unusualExtensionTakesTheDeclaredType() throws {
        let book = try EPUBTestSupport.parseSample("epub/epubcheck-epub2-ops-xhtml-unusual-extension-valid.epub")
        #expect(book.manifest.readingOrder.first?.href == "OPS/content_001.foo")
        #expect(book.manifest.readingOrder.first?.mediaType == .xhtml)
    }

    @Test func versionZeroStillOpens() throws {
        let book = try EPUBTestSupport.parseSample("epub/w3c-pkg-version-backward.epub")
        #expect(book.metadata.title == "pkg-version-backward")
        #expect(book.manifest.readingOrder.count == 1)
        #expect(book.warned("package version \"0\""))
    }

    @Test func spineProgressionRTL() throws {
        let book = try EPUBTestSupport.parseSample("epub/w3c-pkg-spine-progression_rtl.epub")
        #expect(book.metadata.readingProgression == .rtl)
        #expect(book.manifest.readingOrder.count == 4)
        #expect(book.manifest.tableOfContents.map(\.title) == ["Page 1", "Page 2", "Page 3", "Page 4"])
    }

    @Test func mathMLAndMediaOverlays() throws {
        let mathml = try EPUBTestSupport.parseSample("epub/w3c-cnt-mathml-support.epub")
        #expect(mathml.manifest.readingOrder.first?.properties.contains == ["mathml"])
        let overlays = try EPUBTestSupport.parseSample("epub/w3c-mol-navigation.epub")
        #expect(overlays.metadata.duration == 36.266)
        #expect(overlays.manifest.resources.filter { $0.mediaType?.isAudio == true }.count == 2)
    }

    @Test func aliceAndHeftyWater() throws {
        let alice = try EPUBTestSupport.parseSample("epub/epubjs-alice.epub")
        #expect(alice.metadata.title == "Alice's Adventures in Wonderland")
        #expect(alice.metadata.authors.map(\.name) == ["Lewis Carroll"])
        #expect(alice.metadata.contributors.map(\.name) == ["Gordon Robinson"])
        #expect(alice.manifest.readingOrder.count == 11)
        #expect(alice.manifest.readingOrder.first?.href == "OPS/titlepage.xhtml")
        #expect(alice.manifest.tableOfContents.count == 11)
        #expect(alice.manifest.resources.filter { $0.mediaType?.isBitmap == true }.count >= 28)

        let hefty = try EPUBTestSupport.parseSample("epub/idpf-hefty-water.epub")
        #expect(hefty.metadata.title == "Hefty Water")
        #expect(hefty.manifest.tableOfContents.first?.children.count == 3)
    }

    @Test func lcpWastelandCarriesItsEncryption() throws {
        let book = try EPUBTestSupport.parseSample("lcp/r2streamerjs-wasteland-otf-obf_LCP_dan.epub")
        #expect(book.metadata.title == "The Waste Land")
        let content = try #require(book.manifest.readingOrder.first?.properties.encryption)
        #expect(content.algorithm == Encryption.Algorithm.aes256CBC)
        #expect(content.scheme == EPUBEncryptionDocument.lcpScheme)
        #expect(content.compression == "deflate")
        #expect(content.originalLength == 49975)
        let font = try #require(book.manifest.resources.first { $0.href == "EPUB/OldStandard-Bold.obf.otf" })
        #expect(font.properties.encryption?.algorithm == Encryption.Algorithm.idpfFontObfuscation)
        // The navigation document is in clear, so the table of contents is there before unlocking.
        #expect(book.manifest.tableOfContents.count == 6)
        #expect(book.manifest.link(withRel: "cover")?.properties.encryption == nil)
    }

    @Test func missingPackageDocumentIsRebuiltFromTheArchive() throws {
        // swift-toolkit's truncated fixture: container.xml names OPS/package.opf, which is absent.
        let book = try EPUBTestSupport.parseSample("lcp/swifttoolkit-epub-lcp.epub")
        #expect(book.manifest.readingOrder.map(\.href) == ["OPS/chapter_001.xhtml", "OPS/cover.xhtml"])
        // The .DS_Store junk and META-INF are left out; encryption.xml still marks the content.
        #expect(book.manifest.resources.isEmpty)
        #expect(book.manifest.readingOrder.allSatisfy { $0.properties.encryption?.scheme == "http://readium.org/2014/01/lcp" })
        #expect(book.manifest.readingOrder.first?.properties.encryption?.compression == "deflate")
        #expect(book.metadata.title == "swifttoolkit-epub-lcp")
        let warning = try #require(book.warnings.first { $0.href == "OPS/package.opf" })
        #expect(warning.severity == .major)
        #expect(warning.message.contains("the reading order was rebuilt from the 2 content document(s)"))
    }

    @Test func missingPackageDocumentWithoutContentIsAClearError() throws {
        let path = try EPUBTestSupport.write(opf: nil, entries: [ZipBuilder.Entry("OPS/image.png", "not really a PNG")])
        let error = try #require(throws: PublicationParseError.self) {
            _ = try EPUBTestSupport.parse(path: path)
        }
        guard case .missingResource(let href, _) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(href == "OPS/package.opf")
        #expect(error.userMessage == "the package document named by META-INF/container.xml is missing (OPS/package.opf)")
    }
}

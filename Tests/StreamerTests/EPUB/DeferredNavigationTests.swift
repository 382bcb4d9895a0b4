import Foundation
import Shared
@testable import Streamer
import Synchronization
import Testing
import TestSupport

/// An EPUB's navigation (table of contents, landmarks, page list) is read when first asked for,
/// so a reader paints the first page of a book with thousands of TOC entries without walking
/// them (issue #15); once read, it is the navigation an eager read gives.
@Suite struct DeferredNavigationTests {
    static func open(_ sample: String, deferring: Bool) async throws -> Publication {
        let asset = try AssetRetriever().retrieve(path: Fixtures.sample(sample))
        return try await PublicationOpener().open(asset: asset, allowUserInteraction: false, deferringNavigation: deferring)
    }

    @Test(arguments: ["epub/idpf-moby-dick.epub", "epub/idpf-childrens-literature.epub", "epub/w3c-mol-navigation.epub",
                      "epub/epubcheck-epub2-ops-xhtml-unusual-extension-valid.epub"])
    func aDeferredNavigationIsReadOnFirstUseAndEqualsTheEagerOne(sample: String) async throws {
        let deferred = try await Self.open(sample, deferring: true)
        defer { deferred.close() }
        #expect(!deferred.manifest.isNavigationBuilt, "opening \(sample) read its navigation")
        #expect(!deferred.readingOrder.isEmpty)

        let eager = try await Self.open(sample, deferring: false)
        defer { eager.close() }
        #expect(eager.manifest.isNavigationBuilt)
        #expect(!eager.tableOfContents.isEmpty, "\(sample) has a table of contents")
        #expect(deferred.tableOfContents == eager.tableOfContents)
        #expect(deferred.manifest.isNavigationBuilt)
        #expect(deferred.manifest.subcollections == eager.manifest.subcollections)
        #expect(deferred.manifest == eager.manifest)
        #expect(deferred.manifest.json == eager.manifest.json)
    }

    @Test func manyThreadsAskingAtOnceBuildTheNavigationOnce() async {
        let builds = Atomic<Int>(0)
        let navigation = DeferredNavigation {
            builds.wrappingAdd(1, ordering: .relaxed)
            return DeferredNavigation.Collections(tableOfContents: [Link(href: "c1.xhtml", title: "One")])
        }
        let manifest = Manifest(readingOrder: [Link(href: "c1.xhtml")], navigation: navigation)
        let titles = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<32 { group.addTask { manifest.tableOfContents.first?.title } }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(titles == Array(repeating: "One", count: 32))
        #expect(builds.load(ordering: .relaxed) == 1)
    }

    @Test func changingTheNavigationKeepsWhatWasDeferredForTheRest() {
        let navigation = DeferredNavigation {
            DeferredNavigation.Collections(tableOfContents: [Link(href: "c1.xhtml", title: "One")],
                                           subcollections: ["landmarks": [PublicationCollection(links: [Link(href: "c1.xhtml")])]])
        }
        var manifest = Manifest(readingOrder: [Link(href: "c1.xhtml")], navigation: navigation)
        let shared = manifest
        manifest.subcollections["pageList"] = [PublicationCollection(links: [Link(href: "c1.xhtml#p1", title: "1")])]
        #expect(manifest.tableOfContents.map(\.title) == ["One"])
        #expect(Set(manifest.subcollections.keys) == ["landmarks", "pageList"])
        // A copy taken before the change still reads the navigation as it was.
        #expect(Set(shared.subcollections.keys) == ["landmarks"])
        manifest.tableOfContents = []
        #expect(manifest.tableOfContents.isEmpty)
        #expect(manifest.subcollections["landmarks"] != nil)
    }

    @Test func navigationWarningsArriveWhenTheNavigationIsRead() throws {
        // No navigation document, and an NCX that is not XML.
        let opf = EPUBTestSupport.opf(
            manifest: #"<item id="c1" href="text/c1.xhtml" media-type="application/xhtml+xml"/><item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>"#,
            spineAttributes: "toc=\"ncx\"")
        let path = try EPUBTestSupport.write(opf: opf, entries: [.init("OPS/text/c1.xhtml", EPUBTestSupport.xhtml),
                                                                 .init("OPS/toc.ncx", "plain text, not XML")])
        let archive = try ArchiveFetcher(path: path)
        defer { archive.close() }
        let logger = ListWarningLogger()
        let asset = Asset(name: "book.epub", location: path, format: Format(kind: .epub), fetcher: archive)
        let builder = try #require(try EPUBParser().parse(asset: asset, fetcher: archive, warnings: logger))
        #expect(!logger.warnings.contains { $0.message.contains("the NCX cannot be parsed") })
        #expect(builder.manifest.tableOfContents.isEmpty)
        #expect(logger.warnings.contains { $0.message.contains("the NCX cannot be parsed") })
    }
}

import Bookshelf
import FoundationEssentials
import LibrarySearch
import Shared
import Synchronization
import Testing
import TestSupport
import TextLayout

@Suite struct LibraryIndexTests {
    static let mobyDick = "epub/idpf-moby-dick.epub"
    static let sousLeVent = "epub/idpf-sous-le-vent.epub"
    static let kusamakura = "epub/idpf-kusamakura-preview.epub"

    @Test func findsPassagesRankedWithSnippetsAndPositionsTheReaderResolves() async throws {
        let (store, entries) = try await library(with: [Self.mobyDick, Self.sousLeVent])
        let report = await LibraryIndexer(store: store, open: streamerOpening).indexPending()
        #expect(report.indexed.count == 2)
        #expect(report.failed.isEmpty)
        #expect(try store.fullTextCoverage() == FullTextCoverage(indexed: 2, pending: 0))

        let hits = try search(store, "harpooneer")
        #expect(!hits.isEmpty)
        for hit in hits {
            #expect(hit.publication.id == entries[0].id)
            #expect(hit.highlight.lowercased() == "harpooneer")
            #expect(hit.snippet.contains { $0.isMatch && $0.text.lowercased() == "harpooneer" })
            #expect((0...1).contains(hit.progression))
            // The reader finds the very occurrence: its text at the locator's offset is the match.
            let publication = try #require(try await streamerOpening(hit.publication.path, false, nil).get().publication)
            let document = try ContentDocumentLoader(publication: publication).load(href: hit.href)
            let offset = document.offset(for: hit.locator)
            #expect(document.text(in: offset..<(offset + hit.highlight.count)) == hit.highlight)
            publication.close()
        }
    }

    @Test func searchIgnoresCaseAndAccents() async throws {
        let (store, entries) = try await library(with: ["epub/idpf-childrens-literature.epub"])
        _ = await LibraryIndexer(store: store, open: streamerOpening).indexPending()
        let accented = try search(store, "Fouqué")
        let plain = try search(store, "FOUQUE")
        #expect(!accented.isEmpty)
        #expect(accented.map(\.snippetText) == plain.map(\.snippetText))
        #expect(accented.allSatisfy { $0.publication.id == entries[0].id })
    }

    @Test func findsWordsOfAScriptWithoutSpaces() async throws {
        let (store, _) = try await library(with: [Self.kusamakura])
        _ = await LibraryIndexer(store: store, open: streamerOpening).indexPending()
        let hits = try search(store, "こう考えた")
        let hit = try #require(hits.first)
        #expect(hit.highlight.replacing(" ", with: "") == "こう考えた")
        // Snippets show the text as written, without the index's spaces.
        #expect(hit.snippetText.contains("こう考えた"))
        #expect(try search(store, "考えたこう").isEmpty)
    }

    @Test func removingAPublicationRemovesItsText() async throws {
        let (store, entries) = try await library(with: [Self.mobyDick, Self.sousLeVent])
        _ = await LibraryIndexer(store: store, open: streamerOpening).indexPending()
        #expect(try store.fullTextChunkCount(publicationID: entries[0].id) > 0)
        #expect(!(try search(store, "harpooneer")).isEmpty)
        try store.delete(id: entries[0].id)
        #expect(try store.fullTextChunkCount(publicationID: entries[0].id) == 0)
        #expect(try search(store, "harpooneer").isEmpty)
        #expect(try store.fullTextCoverage() == FullTextCoverage(indexed: 1, pending: 0))
    }

    @Test func anInterruptedIndexingResumesWithoutDuplicates() async throws {
        let (complete, _) = try await library(with: [Self.mobyDick])
        _ = await LibraryIndexer(store: complete, open: streamerOpening).indexPending()
        let (store, entries) = try await library(with: [Self.mobyDick])
        let id = entries[0].id
        // Cancelled once three items are stored.
        let checks = Mutex(0)
        let first = await LibraryIndexer(store: store, open: streamerOpening).indexPending(isCancelled: {
            checks.withLock { count in
                count += 1
                return count > 4
            }
        })
        #expect(first.cancelled)
        #expect(first.indexed.isEmpty)
        #expect(try store.fullTextNextItem(publicationID: id) == 3)
        #expect(try store.fullTextCoverage() == FullTextCoverage(indexed: 0, pending: 1))
        let second = await LibraryIndexer(store: store, open: streamerOpening).indexPending()
        #expect(second.indexed.count == 1)
        #expect(try store.fullTextChunkCount(publicationID: id) == (try complete.fullTextChunkCount(publicationID: 1)))
        #expect(try search(store, "harpooneer").count == (try search(complete, "harpooneer").count))
    }

    @Test func protectedPublicationsAreNeverIndexed() async throws {
        let (store, entries) = try await library(with: [Self.mobyDick, "protected-zip/derived-wasteland-pkzip-secret.epub"])
        #expect(entries[1].protection == .password)
        #expect(try store.fullTextPending().map(\.id) == [entries[0].id])
        // Even a direct attempt to store its text is refused.
        try store.addFullText(publicationID: entries[1].id, item: 0,
                              chunks: [TextChunk(href: "x.xhtml", start: 0, resourceLength: 10, text: "secret words")])
        #expect(try store.fullTextChunkCount(publicationID: entries[1].id) == 0)
        #expect(try search(store, "secret").isEmpty)
    }
}

@testable import Bookshelf
import FoundationEssentials
import LibSQLite
import LibrarySearch
import Testing
import TestSupport

/// The library search folds typographic equivalents as the book search does (#29 item 9):
/// a ligature `ﬁ` is found by `fi` typed, and the snippet marks the text as printed; a library
/// indexed before the folding is emptied and re-indexed.
@Suite struct TypographicLibrarySearchTests {
    static let passage = "Le ﬁls de Queequeg’s ﬂag — encore une eﬃgie.\n"

    @Test func ligaturesAndQuotesAreFoundAsTyped() async throws {
        let (store, entries) = try await library(with: [LibraryIndexTests.sousLeVent])
        try store.addFullText(publicationID: entries[0].id, item: 0,
                              chunks: [TextChunk(href: "x.xhtml", start: 0, resourceLength: Self.passage.count, text: Self.passage)])
        for query in ["fils", "FILS", "ﬁls"] {
            let hit = try #require(try search(store, query).first, "\(query)")
            #expect(hit.highlight == "ﬁls")
            #expect(hit.snippet.contains { $0.isMatch && $0.text == "ﬁls" })
            #expect(hit.progression == 3 / Double(Self.passage.count))
        }
        let effigy = try #require(try search(store, "effigie").first)
        #expect(effigy.highlight == "eﬃgie")
        #expect(effigy.before.hasSuffix("encore une "))
        #expect(try search(store, "flag").first?.highlight == "ﬂag")
        #expect(!(try search(store, "queequeg's")).isEmpty)
        #expect(!(try search(store, "\"queequeg’s flag\"")).isEmpty)
    }

    @Test func anIndexBuiltBeforeTheFoldingIsRebuilt() async throws {
        let path = Fixtures.temporaryDirectory("lectern-fts-old") + "/library.sqlite"
        do {
            // A library of the schema before the folding, with a completely indexed book.
            let database = try SQLiteDatabase(path: path)
            try database.migrate(Array(LibrarySchema.migrations.prefix(2)))
            _ = try database.run("""
                INSERT INTO shelf_publications (id, identity, path, title, sort_title, added_at) VALUES (1, 'x', '/nowhere.epub', 'Old', 'old', 0)
                """)
            _ = try database.run("INSERT INTO shelf_fulltext_chunks (publication_id, href, start, resource_length, body) VALUES (1, 'x.xhtml', 0, 40, ?)",
                                 [.text(Self.passage)])
            _ = try database.run("INSERT INTO shelf_fulltext_books (publication_id, next_item, complete) VALUES (1, 1, 1)")
        }
        let store = try LibraryStore(path: path)
        #expect(try store.fullTextCoverage() == FullTextCoverage(indexed: 0, pending: 1))
        #expect(try store.fullTextChunkCount(publicationID: 1) == 0)
        #expect(try store.fullTextNextItem(publicationID: 1) == 0)
        try store.addFullText(publicationID: 1, item: 0,
                              chunks: [TextChunk(href: "x.xhtml", start: 0, resourceLength: Self.passage.count, text: Self.passage)])
        #expect(try search(store, "fils").first?.highlight == "ﬁls")
        // Removing a passage removes its folded words from the index too.
        try store.delete(id: 1)
        #expect(try search(store, "fils").isEmpty)
    }
}

import Bookshelf
import Foundation
import ReaderUI
import Testing
import Shared
import Streamer
import TestSupport

@Suite struct ShelfSortTests {
    @Test(arguments: [
        ("Herman Melville", "melville herman"),
        ("T.S. Eliot", "eliot t.s."),
        ("Natsume, Sōseki", "natsume, sōseki"),
        ("Ursula K. Le Guin", "le guin ursula k."),
        ("Ludwig van Beethoven", "van beethoven ludwig"),
        ("Martin Luther King Jr.", "king martin luther jr."),
        ("Homer", "homer"),
        ("", ""),
    ])
    func authorsSortByFamilyName(author: String, key: String) {
        #expect(LibraryStore.authorSortKey(author) == key)
    }

    /// By author: family names in order, the publication's own `file-as` first when it has one.
    @Test func theShelfSortsAuthorsByFamilyNameOrFileAs() async throws {
        let store = try LibraryStore(path: Fixtures.temporaryDirectory("sort") + "/library.sqlite")
        try store.add(LibraryEntry(identity: "a", path: "/a.epub", title: "Moby-Dick", author: "Herman Melville"))
        try store.add(LibraryEntry(identity: "b", path: "/b.epub", title: "Emma", author: "Jane Austen"))
        try store.add(LibraryEntry(identity: "c", path: "/c.epub", title: "Kusamakura", author: "Sōseki Natsume", authorSortKey: "natsume, sōseki"))
        try store.add(LibraryEntry(identity: "d", path: "/d.epub", title: "The Waste Land", author: "T.S. Eliot"))
        let stored = try store.entries(sort: .author).map(\.title)
        #expect(stored == ["Emma", "The Waste Land", "Moby-Dick", "Kusamakura"])
        var shelf = ShelfState(sort: .title)
        shelf.setEntries(try store.entries(), loans: [:])
        shelf.setSort(.author)
        #expect(shelf.visible.map { shelf.entries[$0].title } == stored)
    }

    @Test func theImporterTakesFileAsFromThePublication() async throws {
        // <meta refines="#creator" property="file-as">MELVILLE, HERMAN and "Curry, Charles Madison";
        // Kusamakura's is in kana (なつめ そうせき), which sorts as written.
        let (_, entries) = try await importSamples(["epub/idpf-moby-dick.epub", "epub/idpf-childrens-literature.epub",
                                                    "epub/idpf-kusamakura-preview.epub", "epub/idpf-wasteland.epub"])
        #expect(entries.map(\.authorSortKey) == ["melville, herman", "curry, charles madison", "なつめ そうせき", "eliot t.s."])
    }
}

/// A library in a temporary folder with the samples imported, opened with the Streamer.
private func importSamples(_ samples: [String]) async throws -> (LibraryStore, [LibraryEntry]) {
    let store = try LibraryStore(path: Fixtures.temporaryDirectory("sort-import") + "/library.sqlite")
    let importer = LibraryImporter(store: store) { path, _, _ in
        do {
            let asset = try AssetRetriever().retrieve(path: path)
            let publication = try await PublicationOpener().open(asset: asset, allowUserInteraction: false)
            return .success(OpenedPublication(publication: publication, format: "EPUB", licenseID: nil))
        } catch {
            return .failure(OpenFailure(message: "\(error)"))
        }
    }
    var entries: [LibraryEntry] = []
    for sample in samples {
        if let entry = await importer.importFile(Fixtures.sample(sample)).entry { entries.append(entry) }
    }
    return (store, entries)
}

@Suite struct ShelfDuplicateTests {
    /// Two publications with one title show their file names; a unique title shows alone.
    @Test func duplicateTitlesAreToldApartByTheirFile() {
        var shelf = ShelfState()
        let first = LibraryEntry(id: 1, identity: "a", path: "/books/moby-dick.epub", title: "Moby-Dick", author: "Herman Melville")
        let second = LibraryEntry(id: 2, identity: "b", path: "/books/moby-dick-illustrated.epub", title: "Moby-Dick", author: "Herman Melville")
        let other = LibraryEntry(id: 3, identity: "c", path: "/books/emma.epub", title: "Emma", author: "Jane Austen")
        shelf.setEntries([first, second, other], loans: [:])
        #expect(shelf.displayTitle(of: first) == "Moby-Dick (moby-dick.epub)")
        #expect(shelf.displayTitle(of: second) == "Moby-Dick (moby-dick-illustrated.epub)")
        #expect(shelf.displayTitle(of: other) == "Emma")
    }
}

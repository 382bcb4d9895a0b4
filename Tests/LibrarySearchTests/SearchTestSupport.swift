import Bookshelf
import FoundationEssentials
import LibrarySearch
import Shared
import Streamer
import TestSupport

/// Opens publications with the Streamer alone (no LCP), as the library's opener would.
let streamerOpening: PublicationOpening = { path, allowUserInteraction, _ in
    do {
        let asset = try AssetRetriever().retrieve(path: path)
        let publication = try await PublicationOpener().open(asset: asset, allowUserInteraction: allowUserInteraction)
        return .success(OpenedPublication(publication: publication, format: asset.format.description, licenseID: nil))
    } catch {
        return .failure(OpenFailure(message: "\(error)", restriction: (error as? OpeningError)?.protectionRestriction))
    }
}

/// A library in a temporary folder with `samples` imported (paths relative to the samples).
func library(with samples: [String]) async throws -> (LibraryStore, [LibraryEntry]) {
    let folder = Fixtures.temporaryDirectory("lectern-fts")
    let store = try LibraryStore(path: folder + "/library.sqlite")
    let importer = LibraryImporter(store: store, open: streamerOpening)
    var entries: [LibraryEntry] = []
    for sample in samples {
        let outcome = await importer.importFile(Fixtures.sample(sample))
        guard let entry = outcome.entry else { throw SearchTestError(message: outcome.error ?? "not imported: \(sample)") }
        entries.append(entry)
    }
    return (store, entries)
}

struct SearchTestError: Error { let message: String }

/// The search of `text` in `store` (a query that must parse).
func search(_ store: LibraryStore, _ text: String, limit: Int = 20) throws -> [FullTextHit] {
    guard let query = FullTextQuery(text) else { throw SearchTestError(message: "no query in \(text)") }
    return try store.searchFullText(query, limit: limit)
}

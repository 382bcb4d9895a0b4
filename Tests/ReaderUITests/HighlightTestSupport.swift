import Annotations
import Bookshelf
@testable import ReaderUI
import Shared
import Terminal
import TestSupport

/// The annotations of the tests' books, in memory: what the interface stores through its
/// ``BookAnnotationStore`` (the library's own store is tested in BookshelfTests).
actor MemoryAnnotationStore {
    private var items: [Int64: [String: Annotation]] = [:]

    func list(_ id: Int64) -> [Annotation] { items[id].map { Array($0.values) }?.filter { !$0.deleted } ?? [] }
    func save(_ annotation: Annotation, _ id: Int64) { items[id, default: [:]][annotation.id] = annotation }
    func delete(_ annotationID: String, _ id: Int64) { items[id]?[annotationID]?.deleted = true }
    func all() -> [Annotation] { items.values.flatMap(\.values).filter { !$0.deleted } }

    nonisolated var factory: AnnotationStoreFactory {
        { id, _ in
            BookAnnotationStore(list: { await self.list(id) }, save: { await self.save($0, id) },
                                delete: { await self.delete($0, id) })
        }
    }

    /// Waits (bounded) until the live annotations satisfy `condition`.
    @discardableResult
    func waitUntil(_ condition: @Sendable ([Annotation]) -> Bool) async throws -> [Annotation] {
        do {
            try await StateWait.until("the annotations stored") { condition(all()) }
        } catch is StateWait.Timeout {
            throw InProcessTimeout(what: "the annotations stored", screen: "\(all())")
        }
        return all()
    }

    func waitForCount(_ count: Int) async throws -> [Annotation] {
        try await waitUntil { $0.count == count }
    }
}

/// The interface in-process with a library and an annotation store, on a canvas of
/// `colorCount` colours (0: as under `NO_COLOR`).
@MainActor
struct HighlightUI {
    let ui: InProcessApp
    let store: MemoryAnnotationStore
    var app: ReaderApp { ui.app }
    var canvas: MemoryCanvas { ui.canvas }
    var library: Library? { ui.library }

    init(_ label: String, rows: Int = 24, columns: Int, colorCount: Int, library: Library? = nil,
         store: MemoryAnnotationStore = MemoryAnnotationStore()) throws {
        self.store = store
        ui = try InProcessApp(label, rows: rows, columns: columns, library: library, colorCount: colorCount,
                              annotations: store.factory)
    }

    func press(_ keys: Key...) { for key in keys { ui.app.press(key) } }
    func type(_ text: String) { ui.type(text) }

    @discardableResult
    func waitFor(_ texts: String..., absent: [String] = []) async throws -> String {
        try await ui.waitUntil("\(texts) shown without \(absent)") { screen in
            texts.allSatisfy(screen.contains) && !absent.contains(where: screen.contains)
        }
    }

    @discardableResult
    func waitUntil(_ what: String, _ condition: (String) -> Bool) async throws -> String {
        try await ui.waitUntil(what, condition)
    }

    /// Searches the book for `query` and waits for the first match.
    func search(_ query: String) async throws {
        press(.character("/"))
        type(query)
        press(.enter)
        try await waitFor("“\(query)”", absent: ["Searching"])
    }

    /// The style of the first cell of the first `word` on the page (not on the status line).
    func style(of word: String) -> CellStyle? {
        let rows = canvas.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        for (row, line) in rows.enumerated() where row < canvas.size.rows - 1 {
            guard let range = line.range(of: word) else { continue }
            return canvas.style(row: row, column: line.distance(from: line.startIndex, to: range.lowerBound))
        }
        return nil
    }
}

/// The library's own annotation store, unsealed (the tests' books are not protected).
func libraryAnnotations(_ store: LibraryStore) -> AnnotationStoreFactory {
    { id, _ in
        BookAnnotationStore(
            list: { () async throws(LibraryError) -> [Annotation] in try store.annotations(publicationID: id, sealing: nil) },
            save: { (annotation: Annotation) async throws(LibraryError) in try store.saveAnnotation(annotation, publicationID: id, sealing: nil) },
            delete: { (annotationID: String) async throws(LibraryError) in try store.deleteAnnotation(id: annotationID, publicationID: id) })
    }
}

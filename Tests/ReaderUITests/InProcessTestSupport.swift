import Bookshelf
import Foundation
@testable import ReaderUI
import Shared
import Streamer
import Terminal
import TestSupport

/// The interface run in-process on a ``MemoryCanvas`` (#30): keys in, the canvas read back,
/// as the tmux suites do with a terminal — without one.
@MainActor
struct InProcessApp {
    let app: ReaderApp
    let canvas: MemoryCanvas
    let library: Library?

    /// An interface with a library in a temporary folder (or none), opening publications with
    /// the Streamer through `open` (by default, without protections but the ZIP and PDF ones).
    init(_ label: String, rows: Int = 24, columns: Int = 80, withLibrary: Bool = true, library given: Library? = nil,
         open: PublicationOpening? = nil, colorCount: Int = 0, annotations: AnnotationStoreFactory? = nil,
         catalogs: CatalogServices? = nil) throws {
        let folder = Fixtures.temporaryDirectory(label)
        library = try given ?? (withLibrary ? Library(store: try LibraryStore(path: folder + "/library.sqlite")) : nil)
        var dependencies = ReaderApp.Dependencies(library: library, open: open ?? Self.open, config: ReaderConfig())
        dependencies.cacheFolder = folder + "/cache"
        dependencies.annotations = annotations
        dependencies.catalogs = catalogs
        app = ReaderApp(dependencies: dependencies)
        canvas = MemoryCanvas(rows: rows, columns: columns, colorCount: colorCount)
    }

    /// Opens with the Streamer, asking for credentials through the interface when allowed.
    static let open: PublicationOpening = { path, allowUserInteraction, onAskCredentials in
        do {
            let asset = try AssetRetriever().retrieve(path: path)
            let publication = try await PublicationOpener(onAskCredentials: onAskCredentials)
                .open(asset: asset, allowUserInteraction: allowUserInteraction)
            return .success(OpenedPublication(publication: publication, format: asset.format.displayName, licenseID: nil))
        } catch let error as OpeningError {
            return .failure(OpenFailure(error))
        } catch {
            return .failure(OpenFailure(message: "\(error)"))
        }
    }

    /// Types `keys` one at a time, each handled and drawn.
    func press(_ keys: Key...) {
        for key in keys { app.press(key) }
    }

    /// Types the characters of `text`.
    func type(_ text: String) {
        for character in text { app.press(.character(character)) }
    }

    /// Waits until the canvas shows all of `texts` (work started by a key finishes on the main
    /// actor); throws with the canvas when it does not within a bound.
    @discardableResult
    func waitFor(_ texts: String..., absent: [String] = []) async throws -> String {
        try await waitUntil("\(texts) shown\(absent.isEmpty ? "" : " without \(absent)")") { screen in
            texts.allSatisfy(screen.contains) && !absent.contains(where: screen.contains)
        }
    }

    /// Waits until `condition` holds for what the canvas shows.
    @discardableResult
    func waitUntil(_ what: String, _ condition: (String) -> Bool) async throws -> String {
        do {
            try await StateWait.until(what) {
                app.redraw()
                return condition(canvas.text)
            }
        } catch is StateWait.Timeout {
            throw InProcessTimeout(what: what, screen: canvas.text)
        }
        return canvas.text
    }
}

struct InProcessTimeout: Error, CustomStringConvertible {
    let what: String
    let screen: String
    var description: String { "timed out waiting for \(what); canvas:\n\(screen)" }
}

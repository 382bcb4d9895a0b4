import Foundation
import Shared
import Streamer
import TestSupport

/// Opens files the document tests write, as the command line does: sniffed, then parsed.
enum DocumentOpening {
    /// Writes `bytes` to a new file named `name` in a fresh folder; returns its path.
    static func write(_ bytes: Data, named name: String, in folder: String = Fixtures.temporaryDirectory("documents")) throws -> String {
        let path = folder + "/" + name
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    static func open(_ path: String) async throws -> Publication {
        let asset = try AssetRetriever().retrieve(path: path)
        return try await PublicationOpener().open(asset: asset, allowUserInteraction: false)
    }

    /// The error message opening `path` ends with; nil when it opens.
    static func failure(_ path: String) async -> String? {
        do {
            let asset = try AssetRetriever().retrieve(path: path)
            let publication = try await PublicationOpener().open(asset: asset, allowUserInteraction: false)
            publication.close()
            return nil
        } catch let error as OpeningError {
            return error.userMessage
        } catch let error as AssetError {
            return error.userMessage
        } catch {
            return "\(error)"
        }
    }

    /// The resource at `href` as UTF-8 text.
    static func text(_ publication: Publication, _ href: String) throws -> String {
        String(decoding: try publication.get(href).read(range: nil).get(), as: UTF8.self)
    }

    /// Contents titles, nested ones indented by two spaces.
    static func outline(_ links: [Link], indent: String = "") -> [String] {
        links.flatMap { [indent + ($0.title ?? "?")] + outline($0.children, indent: indent + "  ") }
    }
}

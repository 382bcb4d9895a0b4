import Pictures
import Shared

/// A cover as the bookshelf's side panel shows it, for one size of the panel.
enum PanelCover: Sendable, Equatable {
    case picture(TerminalPicture)
    /// Words in place of a picture ("No cover", "Protected: no cover shown").
    case placeholder(String)
}

/// Which cover, drawn in which cells: a publication (by content identity) in a panel of
/// `columns` × `rows` cells.
struct PanelCoverKey: Sendable, Hashable {
    var identity: String
    var columns: Int
    var rows: Int
}

/// A cover written to the terminal: which, and its top-left cell.
struct CoverPlacement: Sendable, Hashable {
    var key: PanelCoverKey
    var row: Int
    var column: Int
}

/// The covers of the bookshelf's side panel and covers view: what is decoded (kept in memory for the last
/// publications selected), what is encoded for the panel's size, what is being loaded, and
/// what was last written to the terminal. Loading runs off the main actor, one publication at
/// a time: while it runs, moving the selection only changes what is asked next, so holding a
/// key down decodes the covers passed over only when they are already cached.
@MainActor
final class ShelfCoverDisplay {
    /// How pictures are drawn; nil when they are off (then there is no panel).
    let output: PictureOutput
    private var covers: [String: ShelfCover] = [:]
    private var coverOrder: [String] = []
    private var encoded: [PanelCoverKey: PanelCover] = [:]
    private var encodedOrder: [PanelCoverKey] = []
    /// The cover being loaded or encoded.
    var loading: PanelCoverKey?
    /// What is on the terminal now.
    var drawn: Set<CoverPlacement> = []
    /// Whether the shelf shows the covers view (`v`) rather than the list.
    var isGrid = false
    /// The first row of tiles of the covers view.
    var gridTop = 0

    /// Publications whose decoded cover stays in memory.
    static let coversKept = 32
    /// Covers encoded for a panel size kept in memory.
    static let encodedKept = 64

    init(output: PictureOutput) {
        self.output = output
    }

    var pictureProtocol: PictureProtocol? { output.protocol }

    func cover(identity: String) -> ShelfCover? { covers[identity] }

    func panelCover(for key: PanelCoverKey) -> PanelCover? { encoded[key] }

    func store(_ cover: ShelfCover, identity: String) {
        covers[identity] = cover
        coverOrder.removeAll { $0 == identity }
        coverOrder.append(identity)
        while coverOrder.count > Self.coversKept { covers[coverOrder.removeFirst()] = nil }
    }

    func store(_ panelCover: PanelCover, for key: PanelCoverKey) {
        encoded[key] = panelCover
        encodedOrder.removeAll { $0 == key }
        encodedOrder.append(key)
        while encodedOrder.count > Self.encodedKept { encoded[encodedOrder.removeFirst()] = nil }
    }

    /// `cover` drawn in `columns` × `rows` cells (proportions kept, at most that size).
    /// Blocks: call it off the main actor.
    nonisolated static func encode(_ cover: ShelfCover, columns: Int, rows: Int, output: PictureOutput) -> PanelCover {
        guard case .picture(let bitmap) = cover, let used = output.protocol else {
            if case .none(let reason) = cover { return .placeholder(reason) }
            return .placeholder("No cover")
        }
        let size = PictureGeometry.cells(pixelWidth: bitmap.width, pixelHeight: bitmap.height, columns: columns, rows: rows,
                                         cell: output.cell, fit: .page)
        do throws(PictureError) {
            return .picture(try PictureEncoder.encode(bitmap, columns: size.columns, rows: size.rows, protocol: used,
                                                      colors: output.colors, cell: output.cell))
        } catch {
            return .placeholder("Cover: \(error)")
        }
    }
}

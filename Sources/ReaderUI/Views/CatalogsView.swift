import Bookshelf
import OPDS
import Shared
import Terminal

/// Draws the Catalogs view: a title bar (the catalog and the feed), the list of catalogs, a
/// feed's entries, or a publication's details and actions, and a status line (loading, the
/// search being typed, a message or the keys). Every string from a catalog is sanitised.
@MainActor
enum CatalogsView {
    /// The rows the lists get in a window of `rows` rows.
    static func listRows(windowRows rows: Int) -> Int { max(1, rows - 2) }

    static func draw(_ state: CatalogBrowserState, painter: Painter) {
        var title = " Catalogs"
        if let catalog = state.catalog { title += " — " + safe(catalog.name) }
        switch state.current {
        case .feed(let screen)?:
            if !screen.feed.metadata.title.isEmpty { title += " — " + safe(screen.feed.metadata.title) }
            if let page = screen.feed.metadata.currentPage { title += " · page \(page)" }
            if let total = screen.feed.metadata.numberOfItems { title += " · \(total) items" }
            painter.bar(TextFitting.fitted(title, to: painter.columns, interfaceLine: true), row: 0, .status)
            drawFeed(screen, painter: painter)
        case .publication(let screen)?:
            painter.bar(TextFitting.fitted(title, to: painter.columns, interfaceLine: true), row: 0, .status)
            drawPublication(screen, painter: painter)
        case nil:
            painter.bar(TextFitting.fitted(title, to: painter.columns, interfaceLine: true), row: 0, .status)
            drawCatalogs(state, painter: painter)
        }
        drawStatus(state, painter: painter)
    }

    private static func drawCatalogs(_ state: CatalogBrowserState, painter: Painter) {
        guard let catalogs = state.catalogs else {
            painter.text("Reading the saved catalogs…", row: 1, column: 1, .secondary)
            return
        }
        if catalogs.isEmpty {
            painter.text("No saved catalogs. Add one from the command line:", row: 1, column: 1, .secondary)
            painter.text("lectern catalog add URL [--name NAME] [--username USER]", row: 2, column: 3, .secondary)
            return
        }
        let nameWidth = min(30, max(8, catalogs.map { TextFitting.width(safe($0.name)) }.max() ?? 8))
        for (offset, index) in state.catalogList.visibleRange.enumerated() {
            let catalog = catalogs[index]
            let text = " " + TextFitting.pad(safe(catalog.name), to: nameWidth) + "  " + safe(Diagnostics.redacted(catalog.url))
                + (catalog.username.map { "  (as \(safe($0)))" } ?? "")
            row(text, at: 1 + offset, selected: index == state.catalogList.selection, painter: painter)
        }
    }

    private static func drawFeed(_ screen: CatalogFeedScreen, painter: Painter) {
        if screen.rows.isEmpty { painter.text("Nothing in this feed.", row: 1, column: 1, .secondary) }
        for (offset, index) in screen.list.visibleRange.enumerated() {
            let text: String
            switch screen.rows[index] {
            case .navigation(let link):
                text = " → " + safe(link.title ?? link.href) + (link.properties.numberOfItems.map { " (\($0))" } ?? "")
            case .publication(let publication):
                let authors = publication.metadata.authors.isEmpty ? "" : " — " + safe(publication.metadata.authors.joined(separator: ", "))
                text = "   " + safe(publication.metadata.title) + authors
            case .facet(let group, let link):
                text = " ⋄ " + safe(group) + ": " + safe(link.title ?? link.href) + (link.properties.isActiveFacet ? " (shown)" : "")
            }
            row(text, at: 1 + offset, selected: index == screen.list.selection, painter: painter)
        }
    }

    private static func drawPublication(_ screen: CatalogPublicationScreen, painter: Painter) {
        let width = max(4, painter.columns - 2)
        let metadata = screen.publication.metadata
        var lines: [(String, ThemeElement)] = [(safe(metadata.title), .heading)]
        if !metadata.authors.isEmpty { lines.append(("by " + safe(metadata.authors.joined(separator: ", ")), .text)) }
        var facts: [String] = []
        if !metadata.publishers.isEmpty { facts.append(safe(metadata.publishers.joined(separator: ", "))) }
        if let published = metadata.published { facts.append(safe(published)) }
        if !metadata.languages.isEmpty { facts.append(safe(metadata.languages.joined(separator: ", "))) }
        if !facts.isEmpty { lines.append((facts.joined(separator: " · "), .secondary)) }
        if !metadata.subjects.isEmpty { lines.append((safe(metadata.subjects.prefix(6).joined(separator: ", ")), .secondary)) }
        let actionRows = screen.list.visibleRows
        let summaryRoom = max(0, painter.rows - 2 - lines.count - actionRows - 3)
        if let summary = metadata.summary, !summary.isEmpty, summaryRoom > 0 {
            lines.append(("", .text))
            let wrapped = TextFitting.wrap(safe(summary), width: width)
            lines += wrapped.prefix(summaryRoom).map { ($0, .text) }
            if wrapped.count > summaryRoom, var last = lines.popLast() { last.0 = TextFitting.truncate(last.0 + " …", to: width); lines.append(last) }
        }
        for (offset, line) in lines.enumerated() where 1 + offset < painter.rows - 1 {
            painter.text(TextFitting.visual(line.0), row: 1 + offset, column: 1, line.1, width: width)
        }
        var top = 2 + lines.count
        painter.text(screen.actions.isEmpty ? "This entry offers nothing to get." : "Formats and actions (enter):",
                     row: top, column: 1, .header, width: width)
        top += 1
        for (offset, index) in screen.list.visibleRange.enumerated() where top + offset < painter.rows - 1 {
            let link = screen.actions[index]
            let text = " " + CatalogPublicationScreen.verb(of: link) + " — " + safe(CatalogFormat.describe(link))
            row(text, at: top + offset, selected: index == screen.list.selection, painter: painter)
        }
    }

    private static func drawStatus(_ state: CatalogBrowserState, painter: Painter) {
        let row = painter.rows - 1
        if let field = state.searchField {
            let text = "Search the catalog: " + field.string
            painter.bar(text, row: row, .input)
            painter.screen.setCursor(row: row, column: min(painter.columns - 1, TextFitting.width(text)))
            return
        }
        if let loading = state.loading {
            painter.bar(safe(loading) + "  (esc cancels)", row: row, .status)
            return
        }
        if let message = state.message {
            painter.bar(TextFitting.fitted(safe(message), to: painter.columns, interfaceLine: true), row: row, .status)
            return
        }
        let keys: String = switch state.current {
        case nil: "enter open · q bookshelf · ? help"
        case .feed?: "enter follow · backspace back · / search · n p pages · q bookshelf · ? help"
        case .publication?: "enter get · backspace back · q bookshelf · ? help"
        }
        painter.bar(keys, row: row, .status)
    }

    private static func row(_ text: String, at row: Int, selected: Bool, painter: Painter) {
        guard row < painter.rows - 1 else { return }
        // A feed's titles may be Hebrew or Arabic: in visual order, as the page text.
        let text = TextFitting.fitted(text, to: painter.columns, interfaceLine: true)
        if selected {
            painter.bar(text, row: row, .cursor)
        } else {
            painter.text(text, row: row, column: 0, .text, width: painter.columns)
        }
    }

    private static func safe(_ text: String) -> String {
        String(TerminalText.sanitized(text).map { $0 == "\n" || $0 == "\t" ? " " : $0 })
    }
}

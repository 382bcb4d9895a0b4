import Terminal

/// The contents popup (`t`): the table of contents, the page list or the landmarks; Enter
/// jumps to the entry selected.
struct ContentsScreen: Screen {
    var toc: TOCState

    mutating func handle(_ key: Key, size: (rows: Int, columns: Int)) -> [ScreenEffect] {
        if key == .escape || key == .character("q") || key == .character("t") || key == .tab { return [.pop] }
        toc.list.visibleRows = PopupViews.listRows(windowRows: size.rows)
        if key == .enter || key == .character("l") || key == .right {
            guard let entry = toc.selected else { return [.pop] }
            return [.pop, .jump(href: entry.href, heading: entry.title)]
        }
        if case .character(let character) = key, let kind = TOCState.kind(forKey: character) {
            if !toc.show(kind) { return [.message("This publication has no \(kind == .pages ? "page list" : "landmarks").")] }
        } else {
            _ = toc.list.handle(key)
        }
        return []
    }

    func draw(into painter: Painter) {
        // The rows shown follow the window: worked out on a copy, drawing changes nothing.
        var shown = toc
        shown.list.visibleRows = PopupViews.listRows(windowRows: painter.rows)
        PopupViews.drawTOC(shown, painter: painter)
    }
}

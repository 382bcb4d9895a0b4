import LibXML
import Shared
import TerminalCells

/// Lists: numbering, markers and the indentation of their items.
extension HTMLConverter {
    func list(_ element: XMLElement, _ attributes: Attributes, ordered: Bool, _ context: Context, depth: Int) {
        var context = context
        if let direction = DirectionAttribute(attributes["dir"]) { context.direction = direction }
        flushBlock()
        emitPendingMarker()
        let topLevel = context.listDepth == 0
        if topLevel { spacePending = true }
        let items = element.children(named: "li")
        let reversed = attributes["reversed"] != nil
        let start = attributes["start"].flatMap { Int($0.trimmed) } ?? (reversed ? items.count : 1)
        let numbering = attributes["type"] ?? "1"
        var state = ListState(ordered: ordered, next: start, step: reversed ? -1 : 1, numbering: numbering, markerWidth: 2)
        if ordered {
            var value = start, widest = 0
            for item in items {
                if let explicit = item.attribute("value").flatMap({ Int($0.trimmed) }) { value = explicit }
                widest = max(widest, CellWidth.of(ListNumbering.marker(value, type: numbering)))
                value += state.step
            }
            state.markerWidth = widest + 1
        } else {
            state.markerWidth = CellWidth.of(ListNumbering.bullet(depth: context.listDepth)) + 1
        }
        lists.append(state)
        context.listDepth += 1
        withAnchor(attributes) {
            walkChildren(element, context, depth: depth)
            flushBlock()
            emitPendingMarker()
        }
        lists.removeLast()
        if topLevel { spacePending = true }
    }

    func listItem(_ element: XMLElement, _ attributes: Attributes, _ context: Context, depth: Int) {
        var context = context
        if let direction = DirectionAttribute(attributes["dir"]) { context.direction = direction }
        flushBlock()
        emitPendingMarker()
        let marker: String, width: Int
        if var state = lists.last {
            if state.ordered {
                if let explicit = attributes["value"].flatMap({ Int($0.trimmed) }) { state.next = explicit }
                marker = ListNumbering.marker(state.next, type: state.numbering)
                state.next += state.step
            } else {
                marker = ListNumbering.bullet(depth: max(0, context.listDepth - 1))
            }
            width = max(state.markerWidth, CellWidth.of(marker) + 1)
            lists[lists.count - 1] = state
        } else {
            marker = ListNumbering.bullet(depth: 0)
            width = 2
        }
        pendingMarker = PendingMarker(text: marker, width: width, startIndent: context.startIndent, context: context)
        context.startIndent += width
        withAnchor(attributes) {
            walkChildren(element, context, depth: depth)
            flushBlock()
            emitPendingMarker()
        }
    }

    /// A list item whose marker no text has claimed yet gets a block of its own.
    func emitPendingMarker() {
        guard let marker = pendingMarker else { return }
        startBlock(.listItem, marker.context, nil)
        flushBlock()
    }
}

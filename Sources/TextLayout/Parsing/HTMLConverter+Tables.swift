import LibXML
import Shared

/// Tables: rows, header rows, cells and their spans, collected as a grid.
extension HTMLConverter {
    // MARK: - Tables

    func table(_ element: XMLElement, _ attributes: Attributes, _ context: Context, depth: Int) {
        var context = context
        if let direction = DirectionAttribute(attributes["dir"]) { context.direction = direction }
        flushBlock()
        emitPendingMarker()
        spacePending = true
        if let caption = element.firstChild(named: "caption") {
            var captionContext = context
            captionContext.style.emphasis.insert(.italic)
            blockElement(caption, Attributes(caption), .plain, captionContext, depth: depth + 1)
        }
        if let id = attributes["id"] { recordAnchor(id) }
        let tableStart = offset, firstBlock = blockCount
        let hadSpace = spacePending
        var rows: [[TableCell]] = []
        var headerRows = 0
        func visitRow(_ row: XMLElement, header: Bool) {
            var cells: [TableCell] = []
            for cell in row.children {
                let name = cell.localName.lowercased()
                guard name == "td" || name == "th" else { continue }
                let cellAttributes = Attributes(cell)
                if cellAttributes.isHidden { continue }
                cells.append(collectCell(cell, cellAttributes, isHeader: name == "th", context, depth: depth + 2))
            }
            guard !cells.isEmpty else { return }
            rows.append(cells)
            if headerRows == rows.count - 1, header || cells.allSatisfy(\.isHeader) { headerRows = rows.count }
        }
        func visitGroup(_ group: XMLElement, header: Bool, level: Int) {
            for child in group.children {
                switch child.localName.lowercased() {
                case "tr": visitRow(child, header: header)
                case "thead": if level < 3 { visitGroup(child, header: true, level: level + 1) }
                case "tbody", "tfoot": if level < 3 { visitGroup(child, header: header, level: level + 1) }
                default: break
                }
            }
        }
        visitGroup(element, header: false, level: 0)
        guard !rows.isEmpty else {
            spacePending = true
            return
        }
        let direction: TextDirection = blockDirection(for: context, attributes) == .rightToLeft ? .rightToLeft : .leftToRight
        let content = TableContent(rows: rows, headerRows: headerRows, direction: direction)
        let length = rows.reduce(0) { $0 + $1.reduce(0) { $0 + $1.text.count + 1 } }
        offset = tableStart
        appendBlock(TextBlock(kind: .table, text: InlineText(), table: content, startIndent: context.startIndent,
                              endIndent: context.endIndent, hangingIndent: 0, spaceBefore: hadSpace,
                              language: context.language, offset: tableStart, length: length))
        for (id, anchor) in anchors where anchor.blocks.lowerBound >= firstBlock && anchor.offset >= tableStart {
            anchors[id]?.blocks = firstBlock..<(firstBlock + 1)
        }
        if let id = attributes["id"] { anchors[id]?.blocks = firstBlock..<(firstBlock + 1) }
        spacePending = true
    }

    /// The content of a cell: its blocks converted as usual, then joined into one text.
    func collectCell(_ cell: XMLElement, _ attributes: Attributes, isHeader: Bool, _ context: Context, depth: Int) -> TableCell {
        var context = context
        context.startIndent = 0
        context.endIndent = 0
        context.listDepth = 0
        if isHeader { context.style.emphasis.insert(.bold) }
        if let direction = DirectionAttribute(attributes["dir"]) { context.direction = direction }
        let savedLists = lists, savedSpace = spacePending
        lists = []
        // The cell's blocks are gathered into its text below: none is handed on meanwhile.
        provisionalDepth += 1
        defer { provisionalDepth -= 1 }
        let firstBlock = blocks.count, start = offset
        if let id = attributes["id"] { recordAnchor(id) }
        walkChildren(cell, context, depth: depth)
        flushBlock()
        emitPendingMarker()
        var text = InlineText()
        var first = true
        for block in blocks[firstBlock...] {
            let pieces = block.table.map { $0.rows.flatMap { $0.map(\.text) } } ?? [block.text]
            for piece in pieces {
                if first { text = piece; first = false } else { text.appendParagraph(piece) }
            }
        }
        blocks.removeSubrange(firstBlock...)
        lists = savedLists
        spacePending = savedSpace
        offset = start + text.count + 1
        let span = attributes["colspan"].flatMap { Int($0.trimmed) }.map { min(max($0, 1), 64) } ?? 1
        return TableCell(text: text, isHeader: isHeader, columnSpan: span, offset: start)
    }
}

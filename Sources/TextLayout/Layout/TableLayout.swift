/// Tables, laid out simply: columns sized to their content within the width, cells wrapped,
/// columns separated by ` │ `, a `─┼─` line under the header rows. Right-to-left tables put
/// their first column on the right. When even two cells per column cannot fit, each cell is
/// laid out as a paragraph of its own, rows separated by a short rule.
enum TableLayout {
    static let separator = " │ "
    static let separatorWidth = 3

    static func layout(_ table: TableContent, block: TextBlock, index: Int, startIndent: Int, available: Int, width: Int,
                       into lines: inout [LayoutLine]) {
        let columns = table.columnCount
        guard columns > 0 else { return }
        let content = available - separatorWidth * (columns - 1)
        guard content >= 2 * columns else {
            linearize(table, block: block, index: index, startIndent: startIndent, available: available, width: width, into: &lines)
            return
        }
        let widths = columnWidths(table, columns: columns, content: content)
        let rightToLeft = table.direction == .rightToLeft
        // The left column of each logical column.
        var starts = [Int](repeating: 0, count: columns)
        var position = rightToLeft ? width - startIndent : startIndent
        for column in 0..<columns {
            if rightToLeft {
                position -= widths[column]
                starts[column] = position
                position -= separatorWidth
            } else {
                starts[column] = position
                position += widths[column] + separatorWidth
            }
        }
        for (rowNumber, row) in table.rows.enumerated() {
            // Wrap every cell at the width of the columns it spans.
            var cells: [(column: Int, width: Int, text: InlineText, lines: [LineWrapper.Line], offset: Int)] = []
            var column = 0
            // The left column of the separator after each cell but the last.
            var boundaries: [Int] = []
            for cell in row where column < columns {
                let span = min(cell.columnSpan, columns - column)
                if column > 0 {
                    boundaries.append(rightToLeft ? starts[column - 1] - separatorWidth : starts[column - 1] + widths[column - 1])
                }
                let cellWidth = widths[column..<(column + span)].reduce(0, +) + separatorWidth * (span - 1)
                let wrapped = LineWrapper.wrap(cell.text, firstWidth: cellWidth, restWidth: cellWidth, preformatted: false)
                let left = rightToLeft ? starts[column + span - 1] : starts[column]
                cells.append((left, cellWidth, cell.text, wrapped, cell.offset))
                column += span
            }
            let height = max(1, cells.map(\.lines.count).max() ?? 1)
            for lineNumber in 0..<height {
                var spans: [LineSpan] = []
                var low = Int.max, high = Int.min
                for cell in cells where lineNumber < cell.lines.count {
                    let rendered = LineRenderer.render(cell.text, line: cell.lines[lineNumber], offsetBase: cell.offset,
                                                       justifyTo: nil, lineNumber: lineNumber, preformatted: false)
                    let alignRight = cell.text.direction == .rightToLeft
                    let left = alignRight ? cell.column + cell.width - rendered.width : cell.column
                    spans += rendered.spans.map { $0.shifted(by: left) }
                    low = min(low, cell.offset + cell.lines[lineNumber].range.lowerBound)
                    high = max(high, cell.offset + cell.lines[lineNumber].range.upperBound)
                }
                let separatorOffset = low == Int.max ? block.offset : low
                for boundary in boundaries {
                    spans.append(LineSpan(decoration: "│", column: boundary + 1, at: separatorOffset))
                }
                spans.sort { $0.column < $1.column }
                let offsets = low == Int.max ? block.offset..<block.offset : low..<high
                lines.append(LayoutLine(kind: .table, spans: spans, blockIndex: index, offsets: offsets, direction: table.direction,
                                        endsBlock: rowNumber == table.rows.count - 1 && lineNumber == height - 1 && table.headerRows != table.rows.count))
            }
            if rowNumber == table.headerRows - 1, table.headerRows < table.rows.count {
                let ordered = rightToLeft ? Array((0..<columns).reversed()) : Array(0..<columns)
                let border = ordered.map { String(repeating: "─", count: widths[$0]) }.joined(separator: "─┼─")
                let left = rightToLeft ? starts[columns - 1] : starts[0]
                let at = row.last.map { $0.offset + $0.text.count + 1 } ?? block.offset
                lines.append(LayoutLine(kind: .tableBorder, spans: [LineSpan(decoration: border, column: left, at: at)],
                                        blockIndex: index, offsets: at..<at, direction: table.direction, endsBlock: false))
            }
        }
    }

    /// Column widths summing to at most `content`: the natural widths when they fit, else the
    /// longest words plus a share of the rest in proportion to what each column would like,
    /// else shares of the width in proportion to the longest words. Never below 2 cells.
    static func columnWidths(_ table: TableContent, columns: Int, content: Int) -> [Int] {
        var natural = [Int](repeating: 2, count: columns)
        var longestWord = [Int](repeating: 2, count: columns)
        for row in table.rows {
            var column = 0
            for cell in row where column < columns {
                if cell.columnSpan == 1 {
                    let (lineWidth, wordWidth) = measure(cell.text)
                    natural[column] = max(natural[column], lineWidth)
                    longestWord[column] = max(longestWord[column], wordWidth)
                }
                column += cell.columnSpan
            }
        }
        // Cells spanning several columns widen the columns they span when they need more.
        for row in table.rows {
            var column = 0
            for cell in row where column < columns {
                let span = min(cell.columnSpan, columns - column)
                if span > 1 {
                    let (lineWidth, wordWidth) = measure(cell.text)
                    let spanned = column..<(column + span)
                    widen(&natural, spanned, to: lineWidth - separatorWidth * (span - 1))
                    widen(&longestWord, spanned, to: wordWidth - separatorWidth * (span - 1))
                }
                column += span
            }
        }
        for column in 0..<columns { natural[column] = max(natural[column], longestWord[column]) }
        if natural.reduce(0, +) <= content { return natural }
        let minimumTotal = longestWord.reduce(0, +)
        if minimumTotal <= content {
            var widths = longestWord
            let spare = content - minimumTotal
            let wanted = zip(natural, longestWord).map { $0 - $1 }
            let totalWanted = max(1, wanted.reduce(0, +))
            for column in 0..<columns { widths[column] += spare * wanted[column] / totalWanted }
            return widths
        }
        var widths = longestWord.map { max(2, content * $0 / max(1, minimumTotal)) }
        while widths.reduce(0, +) > content, let widest = widths.indices.max(by: { widths[$0] < widths[$1] }), widths[widest] > 2 {
            widths[widest] -= 1
        }
        return widths
    }

    /// Adds cells to `columns` of `widths`, evenly, until they total `total`.
    static func widen(_ widths: inout [Int], _ columns: Range<Int>, to total: Int) {
        var missing = total - columns.reduce(0) { $0 + widths[$1] }
        var column = columns.lowerBound
        while missing > 0 {
            widths[column] += 1
            missing -= 1
            column = column + 1 == columns.upperBound ? columns.lowerBound : column + 1
        }
    }

    /// The widest line of `text` (lines end at `"\n"`) and its widest unbreakable run.
    static func measure(_ text: InlineText) -> (line: Int, word: Int) {
        var widestLine = 0, widestWord = 0, line = 0, word = 0
        for index in 0..<text.count {
            let lead = text.lead(at: index)
            if lead == 0x0A {
                widestLine = max(widestLine, line)
                widestWord = max(widestWord, word)
                line = 0
                word = 0
                continue
            }
            line += text.width(at: index)
            if lead == 0x20 {
                widestWord = max(widestWord, word)
                word = 0
            } else {
                word += text.width(at: index)
                if text.breaks[index] != .none {
                    widestWord = max(widestWord, word)
                    word = 0
                }
            }
        }
        return (max(widestLine, line), max(widestWord, word))
    }

    /// Each cell as a paragraph, rows separated by a short rule: for tables too wide for
    /// even two cells per column.
    static func linearize(_ table: TableContent, block: TextBlock, index: Int, startIndent: Int, available: Int, width: Int,
                          into lines: inout [LayoutLine]) {
        let rightToLeft = table.direction == .rightToLeft
        for (rowNumber, row) in table.rows.enumerated() {
            if rowNumber > 0 {
                let length = min(available, 8)
                let at = row.first?.offset ?? block.offset
                lines.append(LayoutLine(kind: .tableBorder, spans: [LineSpan(decoration: String(repeating: "─", count: length),
                                                                             column: rightToLeft ? width - startIndent - length : startIndent, at: at)],
                                        blockIndex: index, offsets: at..<at, direction: table.direction, endsBlock: false))
            }
            for cell in row {
                for (number, line) in LineWrapper.wrap(cell.text, firstWidth: available, restWidth: available, preformatted: false).enumerated() {
                    let rendered = LineRenderer.render(cell.text, line: line, offsetBase: cell.offset, justifyTo: nil,
                                                       lineNumber: number, preformatted: false)
                    let column = cell.text.direction == .rightToLeft ? width - startIndent - rendered.width : startIndent
                    lines.append(LayoutLine(kind: .table, spans: rendered.spans.map { $0.shifted(by: column) }, blockIndex: index,
                                            offsets: (cell.offset + line.range.lowerBound)..<(cell.offset + line.range.upperBound),
                                            direction: table.direction, endsBlock: false))
                }
            }
        }
    }
}

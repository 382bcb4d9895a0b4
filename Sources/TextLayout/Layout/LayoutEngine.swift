/// Lays out a ``TextDocument`` at a width: the document's blocks become ``LayoutLine``s.
///
/// Layout is pure and synchronous; it touches nothing but its input, so a view runs it off
/// the interface thread and again, from the same document, on every resize.
///
/// The pipeline a reader view follows:
/// 1. `RenderingPermission.checkDisplay(_:)` of Shared (or `checkExport` to write text out);
/// 2. ``ContentDocumentLoader/load(_:)`` for the reading-order item to show (one resource:
///    nothing proportional to the book), giving a width-independent ``TextDocument``;
/// 3. `LayoutEngine.layout(document, options:)` with the width of a ``TextColumn``, giving a
///    ``LaidOutDocument``; draw ``LayoutLine/spans`` at `leftMargin + span.column`, mapping
///    ``TextStyle`` to terminal attributes;
/// 4. keep the place with ``LaidOutDocument/locator(forLine:mediaType:title:)`` and find it
///    again, at any width, with ``LaidOutDocument/lineIndex(for:)``; search with
///    ``TextDocument/ranges(of:caseSensitive:)`` and highlight
///    ``LaidOutDocument/highlights(for:)``; copy ``LaidOutDocument/copyText(lines:)`` or
///    ``TextDocument/text(in:)``; open notes with ``NoteResolver``.
public enum LayoutEngine {
    /// Lays out every block of `document`: counts the lines of each (the page index) and keeps
    /// the lines of the first blocks, where reading starts; the others are laid out again when
    /// they are shown (see ``LaidOutLines``).
    public static func layout(_ document: TextDocument, options: LayoutOptions) -> LaidOutDocument {
        var lines: [LayoutLine] = []
        var blockLines: [Range<Int>] = []
        var segmentStarts: [Int] = []
        var kept: [Int: [LayoutLine]] = [:]
        var keptCount = 0
        blockLines.reserveCapacity(document.blocks.count)
        segmentStarts.reserveCapacity(document.blocks.count + 1)
        var total = 0
        layoutBlocks(of: document, options: options, into: &lines) { lines, first in
            blockLines.append((total + first)..<(total + lines.count))
            segmentStarts.append(total)
            total += lines.count
            if keptCount < LineCache.lineLimit / 4 {
                kept[blockLines.count - 1] = lines
                keptCount += lines.count
            }
            lines.removeAll(keepingCapacity: true)
        }
        segmentStarts.append(total)
        return LaidOutDocument(document: document, options: options,
                               lines: LaidOutLines(document: document, options: options, segmentStarts: segmentStarts, kept: kept),
                               blockLines: blockLines)
    }

    /// The lines of block `index` of `document` alone, as ``layout(_:options:)`` makes them:
    /// the blank lines and picture rows before it, then its text.
    static func segment(of document: TextDocument, block index: Int, options: LayoutOptions) -> [LayoutLine] {
        var stream = LayoutStream(options: options, previous: index > 0 ? document.blocks[index - 1].kind : nil)
        var lines: [LayoutLine] = []
        let images = options.pictureCell == nil ? [] : document.images.filter { $0.blockIndex == index }
        stream.append(document.blocks[index], index: index, images: images, sizes: document.pictureSizes, to: &lines)
        return lines
    }

    /// Lays out `document` block by block, handing each line to `body` in order and keeping
    /// none: the same lines as ``layout(_:options:)``, in memory that does not grow with the
    /// document (for writing a chapter out, as `lectern render` does).
    public static func forEachLine(of document: TextDocument, options: LayoutOptions, _ body: (LayoutLine) -> Void) {
        var lines: [LayoutLine] = []
        layoutBlocks(of: document, options: options, into: &lines) { lines, _ in
            for line in lines { body(line) }
            lines.removeAll(keepingCapacity: true)
        }
    }

    /// The layout loop: appends the lines of each block (after the blank lines that precede
    /// it) to `lines`, then calls `blockDone` with the index in `lines` of the block's first line.
    private static func layoutBlocks(of document: TextDocument, options: LayoutOptions, into lines: inout [LayoutLine],
                                     blockDone: (inout [LayoutLine], Int) -> Void) {
        var stream = LayoutStream(options: options)
        let pictures = options.pictureCell == nil ? [:] : Dictionary(grouping: document.images, by: \.blockIndex)
        for (index, block) in document.blocks.enumerated() {
            let first = stream.append(block, index: index, images: pictures[index] ?? [], sizes: document.pictureSizes, to: &lines)
            blockDone(&lines, first)
        }
    }

    /// Blank rows for each image of `block` whose size is known, at its natural size (a cell
    /// per cell of pixels), never wider than the text nor taller than
    /// ``LayoutOptions/maxPictureRows``, centred, with a blank line under it.
    static func appendPictureRows(_ images: [TextDocument.ImageReference], sizes: [String: TextDocument.PixelSize], block: TextBlock,
                                  cell: LayoutOptions.PictureCellSize, options: LayoutOptions, into lines: inout [LayoutLine]) {
        for image in images {
            guard let size = sizes[image.href], size.width > 0, size.height > 0 else { continue }
            var scale = min(1, Double(options.width * cell.width) / Double(size.width))
            scale = min(scale, Double(max(1, options.maxPictureRows) * cell.height) / Double(size.height))
            let columns = max(1, min(options.width, Int((Double(size.width) * scale / Double(cell.width)).rounded())))
            let rows = max(1, Int((Double(size.height) * scale / Double(cell.height)).rounded()))
            let column = (options.width - columns) / 2
            for row in 0..<rows {
                var line = LayoutLine(kind: .blank, spans: [], blockIndex: nil, offsets: block.offset..<block.offset,
                                      direction: .leftToRight, endsBlock: false)
                line.picture = LayoutLine.PictureRow(href: image.href, row: row, rows: rows, columns: columns, column: column)
                lines.append(line)
            }
        }
    }

    /// The start and end indents of a block, reduced when they would leave the text less
    /// than 10 cells (or the whole width, when narrower).
    static func indents(_ block: TextBlock, width: Int) -> (start: Int, end: Int) {
        let minimum = min(width, 10)
        let total = block.startIndent + block.endIndent
        guard width - total < minimum, total > 0 else { return (block.startIndent, block.endIndent) }
        let room = max(0, width - minimum)
        let start = block.startIndent * room / total
        return (start, min(block.endIndent, room - start))
    }

    static func layoutBlock(_ block: TextBlock, index: Int, firstLineIndent: Int, options: LayoutOptions, into lines: inout [LayoutLine]) {
        let block = block.forDisplay(options.bidi)
        let width = options.width
        let (startIndent, endIndent) = indents(block, width: width)
        let available = width - startIndent - endIndent
        let rightToLeft = block.direction == .rightToLeft
        switch block.kind {
        case .rule:
            let length = max(1, min(available, max(3, available / 3)))
            let column = startIndent + (available - length) / 2
            lines.append(LayoutLine(kind: .rule, spans: [LineSpan(decoration: String(repeating: "─", count: length), column: rightToLeft ? width - column - length : column, at: block.offset)],
                                    blockIndex: index, offsets: block.offset..<block.offset, direction: block.direction, endsBlock: true))
            return
        case .table:
            guard let table = block.table else { return }
            TableLayout.layout(table, block: block, index: index, startIndent: startIndent, available: available,
                               width: width, into: &lines)
            return
        default:
            break
        }
        let text = block.text
        let preformatted = block.kind == .preformatted
        let firstIndent = min(firstLineIndent, max(0, available - LayoutOptions.minimumWidth))
        let hanging = min(block.hangingIndent, max(0, available - LayoutOptions.minimumWidth))
        let wrapped = LineWrapper.wrap(text, firstWidth: max(LayoutOptions.minimumWidth, available - firstIndent),
                                       restWidth: max(LayoutOptions.minimumWidth, available - hanging), preformatted: preformatted)
        let kind: LayoutLine.Kind
        switch block.kind {
        case .heading(let level): kind = .heading(level: level)
        case .preformatted: kind = .preformatted
        default: kind = .text
        }
        let justifies = options.justify && (block.kind == .paragraph || block.kind == .plain || block.kind == .listItem)
        var widest = 0
        for (number, line) in wrapped.enumerated() {
            let lineIndent = number == 0 ? firstIndent : hanging
            let lineAvailable = max(LayoutOptions.minimumWidth, available - lineIndent)
            let justifyTo = justifies && (line.end == .wrapped || line.end == .softHyphen) ? lineAvailable : nil
            let rendered = LineRenderer.render(text, line: line, offsetBase: block.offset, justifyTo: justifyTo,
                                               lineNumber: number, preformatted: preformatted)
            let column = rightToLeft ? width - startIndent - lineIndent - rendered.width : startIndent + lineIndent
            widest = max(widest, rendered.width)
            let end = number == wrapped.count - 1 ? block.offset + block.length : block.offset + line.range.upperBound
            let underlined = options.headingUnderlines && (block.kind == .heading(level: 1) || block.kind == .heading(level: 2))
            lines.append(LayoutLine(kind: kind, spans: rendered.spans.map { $0.shifted(by: column) }, blockIndex: index,
                                    offsets: (block.offset + line.range.lowerBound)..<end, direction: block.direction,
                                    endsBlock: number == wrapped.count - 1 && !underlined))
        }
        if options.headingUnderlines, case .heading(let level) = block.kind, level <= 2, widest > 0 {
            let rule = String(repeating: level == 1 ? "═" : "─", count: widest)
            let column = rightToLeft ? width - startIndent - widest : startIndent
            let at = block.offset + block.length
            lines.append(LayoutLine(kind: .headingUnderline(level: level), spans: [LineSpan(decoration: rule, column: column, at: at)],
                                    blockIndex: index, offsets: at..<at, direction: block.direction, endsBlock: true))
        }
    }
}

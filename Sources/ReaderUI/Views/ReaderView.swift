import Terminal
import TextLayout
import TerminalCells

/// Draws the reader: the page of the chapter, search matches highlighted, and the status line
/// (chapter title, page in chapter, book percentage or "—" until it is known).
@MainActor
enum ReaderView {
    static func draw(_ book: BookController, painter: Painter, prompt: PromptState?, message: String?) {
        let screen = painter.screen
        let rows = painter.rows, columns = painter.columns
        let state = book.state
        let picture = book.pictures.flatMap { $0.isOn && book.playback == nil ? $0 : nil }
        if let picture {
            drawPicturePlaceholder(picture, book: book, painter: painter)
        } else if let layout = state.layout {
            let highlights = highlightMap(book, layout: layout)
            for (screenRow, index) in state.visibleLines.enumerated() where screenRow < rows - 1 {
                drawLine(layout.lines[index], row: screenRow, left: book.column.leftMargin, painter: painter,
                         highlights: highlights[index] ?? [])
            }
            if let hints = book.hints { drawHintLabels(hints, book: book, painter: painter) }
        } else {
            painter.text("Loading…", row: 0, column: book.column.leftMargin, .secondary)
        }
        // Status line.
        let statusRow = rows - 1
        if let prompt {
            let text = prompt.label + prompt.field.string
            painter.bar(text, row: statusRow, .input)
            screen.setCursor(row: statusRow, column: min(columns - 1, TextFitting.width(text)))
            return
        }
        screen.setCursor(row: nil)
        if drawHintStatus(book, painter: painter) { return }
        if let selection = book.selection {
            drawSelectionStatus(selection, book: book, painter: painter, message: message)
            return
        }
        let page = state.pageInChapter.page, pages = state.chapterPagesLabel
        // While listening, the share of the book's duration heard.
        let progression = book.playback.map { $0.locator.locations.totalProgression } ?? state.bookProgression
        let percent = progression.map { "\(Int(($0 * 100).rounded(.down)))%" } ?? "—"
        // No page figures before the first layout: they would be made up.
        var right = state.layout == nil ? "" : "p. \(page)/\(pages)  \(percent)"
        // The printed page, in a book with a page list (a PDF's label is its chapter title).
        let printed = picture == nil ? book.printedPage.map { "page \($0)" } : nil
        if let printed { right = printed + "  " + right }
        if let picture {
            let shown = picture.pagesShown(with: state.chapter, count: book.source.count)
            let pages = shown.count == 2 ? "\(shown[0] + 1)–\(shown[1] + 1)" : "\(state.chapter + 1)"
            // The printed page too, when its label is not its number (text mode says both).
            let label = book.source.pageLabel(state.chapter).flatMap { $0 == String(state.chapter + 1) ? nil : "p. \($0)  " } ?? ""
            right = label + "\(pages)/\(book.source.count)" + (picture.fit == .width ? "  fit width" : "")
        }
        if !state.pendingCount.isEmpty { right = state.pendingCount + "  " + right }
        if book.loadingChapter != nil || state.layout == nil { right = "loading…  " + right }
        // While listening, the player's line instead of the chapter title.
        let title = book.chapterTitle.isEmpty ? book.title : book.chapterTitle
        let left = message ?? book.playback?.statusText ?? readAloudStatus(book) ?? title
        // The time left, when it fits beside the chapter's title or the message (they come first).
        if picture == nil, book.playback == nil, book.loadingChapter == nil, let time = book.timeLeft {
            let room = columns - TextFitting.width(left) - TextFitting.width(right) - 6
            let long = "\(time.chapter) left in chapter" + (time.book.map { " · \($0) in book" } ?? "")
            let short = "\(time.chapter) left"
            if TextFitting.width(long) <= room { right = long + "  " + right }
            else if TextFitting.width(short) <= room { right = short + "  " + right }
        }
        right = Self.fittedFigures(right, short: [
            printed.map { $0 + "  p. \(page)/\(pages)" },
            printed,
            picture == nil && state.layout != nil ? "p. \(page)/\(pages)" : nil,
            picture == nil && state.layout != nil ? "\(page)/\(pages)" : nil,
            picture == nil && state.layout != nil ? "\(page)" : nil,
        ].compactMap { $0 }, columns: columns)
        let rightWidth = TextFitting.width(right)
        let leftWidth = max(0, columns - rightWidth - 3)
        // A message is a line of the interface (left to right); a title is a paragraph of its own.
        painter.bar(" " + TextFitting.fitted(left, to: max(0, leftWidth - 1), interfaceLine: left != title), row: statusRow, .status)
        painter.text(right + " ", row: statusRow, column: max(0, columns - rightWidth - 1), .status)
    }

    /// The status line's figures as a narrow window has room for: whole figures are dropped
    /// (`p. 842/1293  45%` → `842/1293` → `842`), never cut, which would show `p. 842/129`.
    static func fittedFigures(_ full: String, short: [String], columns: Int) -> String {
        let room = columns - 1
        for candidate in [full] + short where TextFitting.width(candidate) <= room { return candidate }
        return ""
    }

    /// What stands in the picture's place until it is drawn (or when it cannot be): the picture
    /// itself is written after ncurses (``ReaderApp/drawPictures()``).
    static func drawPicturePlaceholder(_ display: PictureDisplay, book: BookController, painter: Painter) {
        let rows = max(1, painter.rows - 1)
        let requests = display.requests(with: book.state.chapter, count: book.source.count, columns: painter.columns, rows: rows)
        var text = ""
        for request in requests {
            switch display.result(for: request) {
            case .success?: continue
            case .failure(let error)?: text = "Page \(request.page + 1) cannot be shown: \(error.description)"
            case nil: text = "Loading page \(request.page + 1)…"
            }
            break
        }
        if text.isEmpty { return }
        let width = TextFitting.width(text)
        painter.text(TextFitting.truncate(text, to: painter.columns - 2), row: rows / 2, column: max(1, (painter.columns - width) / 2), .secondary)
    }

    /// The selection bar: what is selected, and the Copy action, greyed when the rights do not
    /// allow copying now.
    static func drawSelectionStatus(_ selection: SelectionState, book: BookController, painter: Painter, message: String?) {
        let row = painter.rows - 1
        let count = selection.text.count
        var left = message ?? "SELECT \(count == 1 ? "1 character" : "\(count) characters")"
        if message == nil, !selection.isAnchored {
            painter.bar(" CURSOR · w b j k h l move · v starts the selection here · esc cancels", row: row, .status)
            return
        }
        if message == nil, let permission = book.copyPermission, let characters = permission.left {
            left += " · \(characters) left to copy"
        }
        if let message {
            // A refusal or a result: the whole line for it.
            painter.bar(" " + TextFitting.fitted(message, to: max(0, painter.columns - 2), interfaceLine: true), row: row, .status)
            return
        }
        let allowed = book.copyPermission?.allowed ?? true
        let copy = allowed ? "y copy" : "y copy (not allowed)"
        // The keys give way to the count (of characters left to copy above all): the longest
        // list of keys that leaves it whole, down to the copy key alone.
        let actions = [[copy, "H highlight", "n note", "o other end", "esc"], [copy, "H highlight", "n note", "esc"],
                       [copy, "H highlight", "esc"], [copy, "esc"], [copy]].map { $0.joined(separator: " · ") }
        let action = actions.first { TextFitting.width(left) + TextFitting.width($0) + 4 <= painter.columns } ?? actions.last!
        let actionWidth = TextFitting.width(action)
        painter.bar(" " + TextFitting.fitted(left, to: max(0, painter.columns - actionWidth - 4)), row: row, .status)
        var style = painter.palette[.status]
        if !allowed { style = style.adding(.dim) }
        painter.screen.draw(action + " ", row: row, column: max(0, painter.columns - actionWidth - 1), style: style)
    }

    /// The highlighted cells of each line: (columns, element).
    static func highlightMap(_ book: BookController, layout: LaidOutDocument) -> [Int: [(Range<Int>, HighlightPaint)]] {
        var map: [Int: [(Range<Int>, HighlightPaint)]] = [:]
        let visible = book.state.visibleLines
        if let selection = book.selection {
            for (line, columns) in layout.highlights(for: selection.range) where visible.contains(line) {
                map[line, default: []].append((columns, .element(.selection)))
            }
        }
        guard let firstOffset = visible.first.map({ layout.lines[$0].offsets.lowerBound }),
              let lastOffset = visible.last.map({ layout.lines[$0].offsets.upperBound }) else { return map }
        if let search = book.search, search.chapterOfMatches == book.state.chapter {
            for range in search.chapterMatches where range.upperBound >= firstOffset && range.lowerBound <= lastOffset {
                let isCurrent = search.current?.chapter == book.state.chapter && search.current?.range == range
                for (line, columns) in layout.highlights(for: range) where visible.contains(line) {
                    map[line, default: []].append((columns, .element(isCurrent ? .currentMatch : .match)))
                }
            }
        }
        // The person's highlights last: a selection or a match over one shows above it.
        addReadAloud(book, layout: layout, to: &map)
        addHighlights(book, layout: layout, offsets: firstOffset..<max(firstOffset, lastOffset), to: &map)
        return map
    }

    static func element(for line: LayoutLine, style: TextStyle) -> ThemeElement {
        switch style.role {
        case .link: return .link
        case .noteReference: return .note
        case .image, .math: return .image
        case .decoration, .listMarker, .rubyAnnotation: return line.kind == .text ? .text : .secondary
        case .text: break
        }
        if case .heading = line.kind { return .heading }
        if case .headingUnderline = line.kind { return .heading }
        if style.emphasis.contains(.code) || line.kind == .preformatted { return .code }
        return .text
    }

    static func attributes(for style: TextStyle) -> CellStyle.Attributes {
        var attributes: CellStyle.Attributes = []
        if style.emphasis.contains(.bold) { attributes.insert(.bold) }
        if style.emphasis.contains(.italic) { attributes.insert(.italic) }
        if style.emphasis.contains(.underline) { attributes.insert(.underline) }
        if style.emphasis.contains(.marked) { attributes.insert(.reverse) }
        return attributes
    }

    static func drawLine(_ line: LayoutLine, row: Int, left: Int, painter: Painter, highlights: [(Range<Int>, HighlightPaint)]) {
        for span in line.spans {
            let base = painter.palette[element(for: line, style: span.style)].adding(attributes(for: span.style))
            guard !highlights.isEmpty else {
                painter.screen.draw(span.text, row: row, column: left + span.column, style: base)
                continue
            }
            // Split the span where highlights start and end.
            var column = span.column, run = "", runStyle = base, runColumn = span.column
            for character in span.characters {
                let highlight = highlights.first { $0.0.contains(column) }?.1
                let style = highlight.map { $0.style(over: base, palette: painter.palette, colorCount: painter.screen.colorCount) } ?? base
                if style != runStyle, !run.isEmpty {
                    painter.screen.draw(run, row: row, column: left + runColumn, style: runStyle)
                    run = ""
                }
                if run.isEmpty { runColumn = column; runStyle = style }
                if let highlight { run += highlight.drawn(character) } else { run.append(character) }
                column += CellWidth.of(character)
            }
            if !run.isEmpty { painter.screen.draw(run, row: row, column: left + runColumn, style: runStyle) }
        }
    }
}

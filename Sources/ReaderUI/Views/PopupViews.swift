import Terminal
import Shared
import TextLayout

/// Draws the popups and the full-screen messages.
@MainActor
enum PopupViews {
    static func popupSize(_ painter: Painter, wantedWidth: Int, wantedHeight: Int) -> (Int, Int) {
        (min(wantedWidth, painter.columns - 2), min(wantedHeight, painter.rows - 2))
    }

    /// The rows a list popup shows in a window of `rows` rows.
    static func listRows(windowRows rows: Int) -> Int { max(1, min(rows - 2, 30) - 2) }

    static func drawTOC(_ toc: TOCState, painter: Painter) {
        let (width, height) = popupSize(painter, wantedWidth: 70, wantedHeight: toc.entries.count + 2)
        // The other lists and their keys: `p` pages, `L` landmarks, `c` contents.
        let others = toc.otherKinds.map { "\($0.key) \($0.title.lowercased())" }
        let title = ([toc.kind.title] + (others.isEmpty ? [] : [others.joined(separator: " · ")])).joined(separator: " — ")
        let inner = painter.box(title: title, width: width, height: max(3, min(height, listRows(windowRows: painter.rows) + 2)))
        if toc.entries.isEmpty {
            painter.text("This publication has no table of contents.", row: inner.row, column: inner.column, .dialog, width: inner.width)
            return
        }
        for (offset, index) in toc.list.visibleRange.enumerated() where offset < inner.height {
            let entry = toc.entries[index]
            let indent = String(repeating: "  ", count: min(entry.depth, 6))
            let text = indent + TextFitting.fitted(entry.title, to: inner.width - TextFitting.width(indent))
            let element: ThemeElement = index == toc.list.selection ? .cursor : .dialog
            painter.bar(text, row: inner.row + offset, element, column: inner.column, width: inner.width)
        }
    }

    static func drawBookmarks(_ state: BookmarksState, painter: Painter) {
        let (width, height) = popupSize(painter, wantedWidth: 70, wantedHeight: state.bookmarks.count + 3)
        let inner = painter.box(title: "Bookmarks — enter jump · r name · d delete", width: width,
                                height: max(4, min(height, listRows(windowRows: painter.rows) + 2)))
        if state.bookmarks.isEmpty {
            painter.text("No bookmarks yet: press m on a page.", row: inner.row, column: inner.column, .dialog, width: inner.width)
            return
        }
        for (offset, index) in state.list.visibleRange.enumerated() where offset < inner.height {
            let element: ThemeElement = index == state.list.selection ? .cursor : .dialog
            painter.bar(TextFitting.fitted(BookmarksState.line(for: state.bookmarks[index]), to: inner.width), row: inner.row + offset, element,
                        column: inner.column, width: inner.width)
        }
        // The name being typed replaces the popup's last row, as a prompt does the status line.
        if let field = state.naming {
            painter.bar("Name: " + TerminalText.singleLine(field.string), row: inner.row + inner.height - 1, .cursor,
                        column: inner.column, width: inner.width)
        }
    }

    static func drawNote(_ note: NoteState, painter: Painter) {
        let width = min(note.layout.options.width + 4, painter.columns - 2)
        let height = min(note.layout.lineCount + 2, painter.rows - 2)
        let inner = painter.box(title: note.title, width: width, height: max(3, height))
        for (offset, index) in (note.top..<min(note.layout.lineCount, note.top + inner.height)).enumerated() {
            let line = note.layout.lines[index]
            for span in line.spans {
                let element = ReaderView.element(for: line, style: span.style)
                var style = painter.palette[.dialog].adding(ReaderView.attributes(for: span.style))
                if element == .heading || element == .link || element == .note { style.foreground = painter.palette[element].foreground }
                painter.screen.draw(span.text, row: inner.row + offset, column: inner.column + span.column, style: style,
                                    maxWidth: inner.width - span.column)
            }
        }
    }

    static func drawHelp(_ help: HelpState, painter: Painter) {
        let width = min(100, painter.columns - 2)
        let inner = painter.box(title: "Keys — esc closes, j/k scroll", width: width, height: painter.rows - 2)
        let lines = help.wrappedLines(width: inner.width)
        for (offset, index) in (min(help.top, lines.count)..<min(lines.count, help.top + inner.height)).enumerated() {
            let line = lines[index]
            let element: ThemeElement = line.hasPrefix(" ") || line.isEmpty ? .dialog : .dialogTitle
            painter.text(line, row: inner.row + offset, column: inner.column, element, width: inner.width)
        }
    }

    static func drawPassphrase(_ dialog: PassphraseDialogState, painter: Painter) {
        let width = min(72, painter.columns - 2)
        let textWidth = max(4, width - 4)
        var lines: [(String, ThemeElement)] = []
        lines += TextFitting.wrap(dialog.request.title, width: textWidth).map { ($0, .dialogTitle) }
        lines += TextFitting.wrap(dialog.request.message, width: textWidth).map { ($0, .dialog) }
        if let hint = dialog.request.hint, !hint.isEmpty {
            lines += TextFitting.wrap("Hint: " + hint, width: textWidth).map { ($0, .dialog) }
        }
        if let link = dialog.request.hintLink, !link.isEmpty {
            lines += TextFitting.wrap("Hint page: " + link, width: textWidth).map { ($0, .secondary) }
        }
        if let error = dialog.request.error, !error.isEmpty {
            lines += TextFitting.wrap(error, width: textWidth).map { ($0, .error) }
        }
        let keys = "enter open · esc cancel · C-r " + (dialog.revealed ? "hide" : "show")
        // The input and the keys must stay visible in a small window: cut the text above.
        let room = max(0, painter.rows - 2 - 2 - 2)
        if lines.count > room { lines = Array(lines.prefix(room)) }
        let inner = painter.box(title: dialog.heading, width: width, height: lines.count + 4)
        for (offset, line) in lines.enumerated() {
            painter.text(TextFitting.visual(line.0), row: inner.row + offset, column: inner.column, line.1, width: inner.width)
        }
        let inputRow = inner.row + lines.count
        let prompt = "> "
        let shown = TextFitting.truncate(dialog.displayedInput, to: max(1, inner.width - 3))
        painter.bar(prompt + shown, row: inputRow, .input, column: inner.column, width: inner.width)
        painter.text(keys, row: inputRow + 1, column: inner.column, .secondary, width: inner.width)
        painter.screen.setCursor(row: inputRow, column: inner.column + TextFitting.width(prompt + shown))
    }

    static func drawRestricted(_ info: RestrictedInfo, painter: Painter) {
        let width = min(76, painter.columns - 2)
        let textWidth = max(4, width - 4)
        var lines: [(String, ThemeElement)] = []
        lines += TextFitting.wrap(info.title, width: textWidth).map { ($0, .dialogTitle) }
        if let protection = info.protection { lines += TextFitting.wrap("Protected by \(protection).", width: textWidth).map { ($0, .dialog) } }
        lines.append(("", .dialog))
        lines += TextFitting.wrap(info.message, width: textWidth).map { ($0, .error) }
        lines.append(("", .dialog))
        for advice in info.advice { lines += TextFitting.wrap(advice, width: textWidth).map { ($0, .dialog) } }
        let keys = info.canRetry ? "enter try again · q back" : "q back"
        lines = Array(lines.prefix(max(1, painter.rows - 5)))
        let inner = painter.box(title: "Cannot show this publication", width: width, height: lines.count + 3)
        for (offset, line) in lines.enumerated() {
            painter.text(TextFitting.visual(line.0), row: inner.row + offset, column: inner.column, line.1, width: inner.width)
        }
        painter.text(keys, row: inner.row + lines.count, column: inner.column, .secondary, width: inner.width)
    }

    static func drawLicense(_ state: LicenseState, painter: Painter) {
        let width = min(78, painter.columns - 2)
        let textWidth = max(4, width - 4)
        var lines: [(String, ThemeElement)] = []
        if let details = state.details {
            let labelWidth = min(14, textWidth / 3)
            for field in details.fields {
                let wrapped = TextFitting.wrap(field.value, width: max(4, textWidth - labelWidth - 1))
                for (index, piece) in wrapped.enumerated() {
                    lines.append(((index == 0 ? TextFitting.pad(field.label, to: labelWidth) : String(repeating: " ", count: labelWidth)) + " " + piece, .dialog))
                }
            }
        } else if let error = state.error {
            lines += TextFitting.wrap(error, width: textWidth).map { ($0, .error) }
        } else {
            lines.append(("Reading the license…", .secondary))
        }
        if let note = state.note {
            lines.append(("", .dialog))
            lines += TextFitting.wrap(note, width: textWidth).map { ($0, .dialogTitle) }
        } else if let unavailable = state.details?.statusUnavailable {
            lines.append(("", .dialog))
            lines += TextFitting.wrap(unavailable, width: textWidth).map { ($0, .secondary) }
        }
        let unreachable = state.details?.statusUnavailable != nil
        let renew = state.details?.canRenew == true ? "r renew" : unreachable ? "r renew (server unreachable)" : "r renew (not offered)"
        let giveBack = state.details?.canReturn == true ? "R return" : unreachable ? "R return (server unreachable)" : "R return (not offered)"
        let keys = state.confirmingReturn ? "Return \"\(state.entry.title)\" to its provider? It will no longer open. y/n" : "\(renew) · \(giveBack) · esc close"
        let room = max(1, painter.rows - 5)
        let top = min(state.top, max(0, lines.count - room))
        let shown = Array(lines.dropFirst(top).prefix(room))
        let inner = painter.box(title: "License — \(TextFitting.isolated(state.entry.title))", width: width, height: shown.count + 3)
        for (offset, line) in shown.enumerated() {
            painter.text(TextFitting.visual(line.0), row: inner.row + offset, column: inner.column, line.1, width: inner.width)
        }
        painter.text(keys, row: inner.row + shown.count, column: inner.column, state.confirmingReturn ? .error : .secondary, width: inner.width)
    }

    static func drawAcquisition(_ state: AcquisitionState, painter: Painter) {
        let width = min(70, painter.columns - 2)
        let inner = painter.box(title: "Acquiring", width: width, height: 5)
        let name = state.license.split(separator: "/").last.map(String.init) ?? state.license
        painter.text(name, row: inner.row, column: inner.column, .dialog, width: inner.width)
        let received = state.progress.map { Self.bytes($0.received) } ?? "connecting…"
        if let fraction = state.progress?.fraction {
            let percent = " \(Int((fraction * 100).rounded(.down)))% "
            let barWidth = max(1, inner.width - TextFitting.width(percent) - TextFitting.width(received) - 1)
            let filled = min(barWidth, Int(Double(barWidth) * fraction))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
            painter.text(bar + percent + received, row: inner.row + 1, column: inner.column, .dialog, width: inner.width)
        } else {
            painter.text(received, row: inner.row + 1, column: inner.column, .dialog, width: inner.width)
        }
        painter.text(state.cancelling ? "Cancelling…" : "esc cancel", row: inner.row + 2, column: inner.column, .secondary, width: inner.width)
    }

    static func bytes(_ count: Int64) -> String {
        if count >= 1 << 20 { return "\(count / (1 << 20)).\((count % (1 << 20)) * 10 / (1 << 20)) MB" }
        if count >= 1 << 10 { return "\(count / (1 << 10)) kB" }
        return "\(count) B"
    }

    static func drawMessage(title: String, lines: [String], painter: Painter) {
        let width = min(76, painter.columns - 2)
        let wrapped = lines.flatMap { TextFitting.wrap($0, width: max(4, width - 4)) }
        let inner = painter.box(title: title, width: width, height: wrapped.count + 2)
        for (offset, line) in wrapped.enumerated() where offset < inner.height {
            painter.text(TextFitting.visual(line), row: inner.row + offset, column: inner.column, .dialog, width: inner.width)
        }
    }
}

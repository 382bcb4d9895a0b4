import Terminal

/// One row of a list of found passages: a label (a book, a chapter), then the snippet, its
/// matched words drawn in `matchElement` unless the row is the selected one.
@MainActor
enum SnippetRow {
    static func draw(label: String, pieces: [(text: String, isMatch: Bool)], row: Int, column left: Int, width: Int,
                     selected: Bool, matchElement: ThemeElement, painter: Painter) {
        let base: ThemeElement = selected ? .cursor : .dialog
        painter.bar(label, row: row, base, column: left, width: width)
        // The snippet is cut at its logical end, then reordered as one paragraph (a Hebrew or
        // Arabic passage reads right to left); each cell keeps its logical character's style.
        let room = max(0, width - TextFitting.width(label))
        var isMatch: [Bool] = []
        for piece in pieces { isMatch += Array(repeating: piece.isMatch, count: piece.text.count) }
        let whole = pieces.map(\.text).joined()
        let cut = TextFitting.truncate(whole, to: room)
        // The `…` of a cut snippet is never part of a match.
        let ellipsis = cut == whole ? -1 : cut.count - 1
        var column = left + TextFitting.width(label)
        var run = "", runIsMatch = false
        func flush() {
            guard !run.isEmpty else { return }
            painter.text(run, row: row, column: column, runIsMatch && !selected ? matchElement : base, width: left + width - column)
            column += TextFitting.width(run)
            run = ""
        }
        for (character, source) in TextFitting.visualCharacters(cut) {
            let matched = source != ellipsis && source < isMatch.count && isMatch[source]
            if matched != runIsMatch { flush(); runIsMatch = matched }
            run.append(character)
        }
        flush()
    }
}

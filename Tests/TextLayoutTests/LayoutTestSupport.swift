import Foundation
import Shared
import Streamer
import TestSupport
@testable import TextLayout
import TerminalCells

/// Converts an HTML fragment (wrapped in a body unless it has its own `<html>`).
func document(_ html: String, href: String = "OEBPS/chapter.xhtml", language: String? = nil,
              readingProgression: ReadingProgression = .auto, options: ContentParseOptions = ContentParseOptions()) throws -> TextDocument {
    let source = html.contains("<html") ? html : "<html><body>\(html)</body></html>"
    return try ContentDocumentParser.parse(html: Array(source.utf8), href: href, language: language,
                                           readingProgression: readingProgression, options: options)
}

/// Lays out an HTML fragment.
func layout(_ html: String, width: Int, justify: Bool = false, paragraphIndent: Int = 2, language: String? = nil,
            bidi: BidiMode = .lectern) throws -> LaidOutDocument {
    var options = LayoutOptions(width: width, justify: justify, paragraphIndent: paragraphIndent)
    options.bidi = bidi
    return LayoutEngine.layout(try document(html, language: language), options: options)
}

extension String {
    /// The text with Arabic presentation forms folded back to the letters (NFKC), for tests
    /// about order rather than shape.
    var unshaped: String { precomposedStringWithCompatibilityMapping }
}

extension LaidOutDocument {
    /// The lines as text.
    var texts: [String] { lines.map(\.text) }
    /// The non-blank lines as text.
    var textLines: [String] { lines.filter { $0.kind != .blank }.map(\.text) }
}

/// The characters shown in `columns` of `line` (cells, counted with ``CellWidth``).
func cells(_ line: LayoutLine, _ columns: Range<Int>) -> String {
    var result = "", column = 0
    for character in line.text {
        if columns.contains(column) { result.append(character) }
        column += CellWidth.of(character)
    }
    return result
}

/// Opens a sample publication, unprotected.
func openSample(_ relativePath: String) async throws -> Publication {
    let asset = try AssetRetriever().retrieve(path: Fixtures.sample(relativePath))
    return try await PublicationOpener().open(asset: asset, allowUserInteraction: false)
}

/// Asserts nothing about layout, but returns every problem with a laid-out document: lines
/// wider than the width, spans whose recorded widths disagree with the table, text lost.
func layoutProblems(_ laidOut: LaidOutDocument) -> [String] {
    var problems: [String] = []
    let width = laidOut.options.width
    for (index, line) in laidOut.lines.enumerated() {
        if line.width > width { problems.append("line \(index) is \(line.width) cells wide (> \(width)): \(line.text)") }
        if let first = line.spans.first, first.column < 0 { problems.append("line \(index) starts at column \(first.column)") }
        var column = 0
        for span in line.spans {
            if span.column < column { problems.append("line \(index): overlapping spans") }
            if span.width != span.characters.reduce(0, { $0 + CellWidth.of($1) }) { problems.append("line \(index): span width") }
            if !span.offsets.isEmpty, span.offsets.count != span.characters.count {
                problems.append("line \(index): span maps \(span.characters.count) clusters to \(span.offsets.count) offsets")
            }
            column = span.column + span.width
        }
    }
    return problems
}

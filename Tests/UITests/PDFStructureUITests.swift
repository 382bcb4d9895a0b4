import Foundation
import Testing
import TestSupport

/// A PDF's reflowed text in the reader keeps its section headings and page numbers out of
/// the paragraphs ("1 Foo Hello, here is…" before).
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct PDFStructureUITests {
    static let pdf = Fixtures.repositoryRoot + "/Tests/Fixtures/Samples/pdf/pypdf-pdflatex-outline.pdf"

    @Test func headingsAndPageNumbersStandApart() throws {
        let tmux = try TmuxSession(width: 80, height: 30, arguments: ["open", Self.pdf], home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitFor("Contents")
        try tmux.press("]")
        let screen = try tmux.waitFor("Hello, here is some text")
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).trimmingCharacters(in: .whitespaces) }
        // The section heading on a line of its own, underlined as a heading, then the paragraph.
        let heading = try #require(lines.firstIndex(of: "1 Foo"), "\(screen)")
        #expect(lines[heading + 1].hasPrefix("─────"))
        #expect(lines.contains { $0.hasPrefix("Hello, here is some text") })
        #expect(!screen.contains("1 Foo Hello"))
        #expect(!screen.contains("Foo Hello"))
    }
}

import Foundation
import Testing
import TestSupport
import TerminalCells

/// `lectern render` of a PDF (#29 item 12): the pages' text as the reader's text mode lays it
/// out — headings underlined, paragraphs reflowed to the width, a blank line between pages —
/// where it used to refuse with "has no text to show".
@Suite struct RenderPDFTextTests {
    let lectern = LecternProcess()
    let pdf = Fixtures.sample("pdf/pypdf-pdflatex-outline.pdf")

    @Test func aPDFsPagesAreRenderedAsText() throws {
        let result = try lectern.run(["render", "--width", "70", pdf])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The section headings of pages 2 to 4, underlined as the reader draws an <h2>.
        for heading in ["1 Foo", "2 Bar", "3 Baz"] {
            let index = try #require(lines.firstIndex(of: heading), "no heading \(heading) in:\n\(result.stdout)")
            #expect(lines[index + 1] == String(repeating: "─", count: heading.count))
        }
        // The PDF's lines joined into paragraphs and wrapped at 70 cells.
        #expect(lines.contains("Hello, here is some text without a meaning. This text should show what"))
        #expect(lines.allSatisfy { CellWidth.of($0) <= 70 })
    }

    @Test func pageRendersThatPageOnly() throws {
        let result = try lectern.run(["render", "--width", "70", "--page", "2", pdf])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("1 Foo\n─────\n"), "\(result.stdout)")
        // Page 2 holds sections 1 to 4; the contents (page 1) and section 9 (page 4) are not printed.
        #expect(result.stdout.contains("\n4 Foo\n"))
        #expect(!result.stdout.contains("Contents"))
        #expect(!result.stdout.contains("\n9 Baz\n"))
        let beyond = try lectern.run(["render", "--page", "9", pdf])
        #expect(beyond.status == 1)
        #expect(beyond.stderr.contains("there is no page 9 (the publication has 4)"))
    }
}

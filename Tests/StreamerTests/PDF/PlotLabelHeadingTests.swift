import LibPoppler
import Shared
@testable import Streamer
import Testing
import TestSupport

/// A plot on a PDF page (#29 item 12): its tick labels and axis titles, set larger than the
/// running text as a scaled figure's often are, do not become headings; the page's real
/// heading does.
@Suite struct PlotLabelHeadingTests {
    /// A 300×200 page: an 18-point heading, two lines of 10-point text, then a plot (axes drawn
    /// as lines) whose scale and axis titles are set in 12 points, larger than the text.
    static let page = """
        BT /F1 18 Tf 20 180 Td (2 Results) Tj ET
        BT /F1 10 Tf 20 162 Td (The measured speed grows with the time, as the plot) Tj 0 -12 Td (below shows for the first ten seconds of the run.) Tj ET
        BT /F1 12 Tf 5 110 Td (Speed) Tj ET
        BT /F1 12 Tf 35 125 Td (1.0) Tj ET
        BT /F1 12 Tf 35 83 Td (0.5) Tj ET
        BT /F1 12 Tf 35 40 Td (0.0) Tj ET
        BT /F1 12 Tf 58 26 Td (0) Tj 97 0 Td (5) Tj 95 0 Td (10) Tj ET
        BT /F1 12 Tf 140 10 Td (Time \\(s\\)) Tj ET
        0.5 w 60 40 m 260 40 l S 60 40 m 60 130 l S 60 40 m 250 125 l S
        """

    @Test func aPlotsAxisLabelsAreNotHeadings() throws {
        let document = try PDFDocument(path: try PDFBuilder.text(pages: [Self.page]).write())
        let blocks = try #require(document.textLayout(ofPage: 0).map(PageStructure.blocks(of:)))
        #expect(blocks.filter { $0.kind == .heading } == [PageTextBlock(kind: .heading, text: "2 Results")], "\(blocks)")
        #expect(blocks.contains(PageTextBlock(kind: .paragraph, text:
            "The measured speed grows with the time, as the plot\nbelow shows for the first ten seconds of the run.")), "\(blocks)")
        // The labels are still read (search finds them), as text; the scale's numbers side by
        // side are not taken for a contents entry ("0 … 5").
        #expect(!blocks.contains { $0.text.contains("…") }, "\(blocks)")
        for label in ["Speed", "1.0", "0.5", "Time (s)"] {
            #expect(blocks.contains { $0.kind == .paragraph && $0.text.contains(label) }, "\(label): \(blocks)")
        }
    }

    /// Larger lines that are not a plot's stay headings: a title of a word or two, and a
    /// chapter's number set alone above its title (under a running head: a first line alone
    /// would be taken for a page number).
    @Test func shortHeadingsAndALoneNumberStayHeadings() throws {
        let page = """
            BT /F1 8 Tf 20 188 Td (A Study of Things) Tj ET
            BT /F1 24 Tf 20 165 Td (3) Tj ET
            BT /F1 18 Tf 20 145 Td (Speed) Tj ET
            BT /F1 10 Tf 20 128 Td (The measured speed grows with the time, as the plot) Tj 0 -12 Td (below shows for the first ten seconds of the run.) Tj ET
            BT /F1 14 Tf 20 90 Td (Time) Tj ET
            BT /F1 10 Tf 20 72 Td (It was measured with a stopwatch held by hand, twice.) Tj ET
            """
        let document = try PDFDocument(path: try PDFBuilder.text(pages: [page]).write())
        let blocks = try #require(document.textLayout(ofPage: 0).map(PageStructure.blocks(of:)))
        #expect(blocks.filter { $0.kind == .heading }.map(\.text) == ["3", "Speed", "Time"], "\(blocks)")
    }

    @Test(arguments: ["0.5", "-2", "10", "1,000", "25%", "0 5 10"])
    func scaleTextHasNoLetter(_ text: String) {
        #expect(PageStructure.isScaleText(text))
    }

    @Test(arguments: ["2 Results", "Time (s)", "x", "", "- -"])
    func otherTextIsNotAScale(_ text: String) {
        #expect(!PageStructure.isScaleText(text))
    }
}

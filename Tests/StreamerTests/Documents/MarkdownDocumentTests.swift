import Foundation
import Shared
import Streamer
import Testing
import TestSupport

/// Markdown opens through cmark-gfm: headings make the contents, pictures beside it are
/// read, raw HTML is not passed through (#34).
@Suite struct MarkdownDocumentTests {
    @Test func headingsMakeTheContentsAndPicturesResolve() async throws {
        let folder = Fixtures.temporaryDirectory("markdown")
        try FileManager.default.createDirectory(atPath: folder + "/img", withIntermediateDirectories: true)
        try TestImages.quadrants(width: 4, height: 4).write(to: URL(fileURLWithPath: folder + "/img/fig.png"))
        let markdown = """
            # Field Notes

            A *first* paragraph with ![a figure](img/fig.png).

            ## Birds

            Sparrows <script>alert(1)</script> and crows.

            ### Corvids

            | name | colour |
            |------|--------|
            | crow | black  |

            ## Trees

            Oaks.
            """
        let path = try DocumentOpening.write(Data(markdown.utf8), named: "notes.md", in: folder)
        let publication = try await DocumentOpening.open(path)
        defer { publication.close() }
        #expect(publication.metadata.title == "Field Notes")
        #expect(DocumentOpening.outline(publication.tableOfContents) == ["Field Notes", "  Birds", "    Corvids", "  Trees"])
        #expect(publication.tableOfContents.first?.children.first?.href == "notes.md#heading-2")
        let document = try DocumentOpening.text(publication, "notes.md")
        #expect(document.contains("<h2 id=\"heading-2\">Birds</h2>"))
        #expect(document.contains("<td>crow</td>"))
        #expect(!document.contains("<script>"))
        #expect(publication.resources.map(\.href) == ["img/fig.png"])
        let picture = try publication.get("img/fig.png").read(range: nil).get()
        #expect(picture.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func footnotesBecomeNoteReferences() async throws {
        let path = try DocumentOpening.write(Data("Text with a note[^1].\n\n[^1]: The note text.\n".utf8), named: "fn.md")
        let publication = try await DocumentOpening.open(path)
        defer { publication.close() }
        let document = try DocumentOpening.text(publication, "fn.md")
        #expect(document.contains("<a href=\"#fn-1\" id=\"fnref-1\" data-footnote-ref=\"\" role=\"doc-noteref\">1</a>"), "\(document)")
        #expect(document.contains("<li id=\"fn-1\">"))
    }

    @Test func binaryMarkdownIsRefused() async throws {
        let path = try DocumentOpening.write(Data([0x23, 0x20, 0x41, 0x00, 0x00, 0xFF]), named: "bad.md")
        let failure = await DocumentOpening.failure(path)
        #expect(failure?.contains("not text") == true, "\(failure ?? "opened")")
    }
}

import Foundation
import Testing
@testable import TextLayout

/// Images in the text: recorded with their block, laid out as rows left for a picture when
/// their size is known, and the words of an SVG page kept as text.
@Suite struct PictureLayoutTests {
    static let cell = LayoutOptions.PictureCellSize(width: 10, height: 20)

    @Test func imagesAreRecordedWithTheirBlock() throws {
        let doc = try document("""
            <p>Before.</p><p><img src="../images/a.png" alt="A"/></p>
            <figure><picture><img src="b.jpg" alt="B"/></picture></figure>
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="c.png"/></svg>
            <p><img src="data:image/png;base64,AAAA" alt="inline data"/><img src="http://example.com/d.png" alt="remote"/></p>
            """)
        #expect(doc.images.map(\.href) == ["images/a.png", "OEBPS/b.jpg", "OEBPS/c.png"])
        #expect(doc.images.map(\.alt) == ["A", "B", "c.png"])
        #expect(doc.images[0].blockIndex == 1)
        #expect(doc.blocks[doc.images[0].blockIndex].text.string.contains("[image: A]"))
    }

    @Test func aKnownImageTakesRowsAboveItsBlock() throws {
        var doc = try document("<p>Before.</p><p><img src=\"a.png\" alt=\"A\"/></p><p>After.</p>")
        doc.pictureSizes["OEBPS/a.png"] = TextDocument.PixelSize(width: 200, height: 120)
        var options = LayoutOptions(width: 60, paragraphIndent: 0)
        options.pictureCell = Self.cell
        let layout = LayoutEngine.layout(doc, options: options)
        let rows = layout.lines.enumerated().filter { $0.element.picture != nil }
        // 200×120 pixels in cells of 10×20: 20 columns by 6 rows, centred in 60.
        #expect(rows.count == 6)
        #expect(rows.first?.element.picture == LayoutLine.PictureRow(href: "OEBPS/a.png", row: 0, rows: 6, columns: 20, column: 20))
        let caption = try #require(layout.lines.firstIndex { $0.text.contains("[image: A]") })
        #expect(rows.last!.offset == caption - 1, "the caption right under the picture")
        #expect(rows.allSatisfy { $0.element.kind == .blank && $0.element.spans.isEmpty }, "no text drawn through the picture")
        // Without the cell size, or without the image's size: the placeholder only.
        #expect(LayoutEngine.layout(doc, options: LayoutOptions(width: 60)).lines.allSatisfy { $0.picture == nil })
        doc.pictureSizes = [:]
        #expect(LayoutEngine.layout(doc, options: options).lines.allSatisfy { $0.picture == nil })
    }

    @Test func aPictureIsNeverWiderThanTheColumnNorTallerThanAllowed() throws {
        var doc = try document("<p><img src=\"a.png\"/></p>")
        doc.pictureSizes["OEBPS/a.png"] = TextDocument.PixelSize(width: 3000, height: 1000)
        var options = LayoutOptions(width: 40)
        options.pictureCell = Self.cell
        options.maxPictureRows = 10
        let wide = LayoutEngine.layout(doc, options: options).lines.compactMap(\.picture)
        #expect(wide.first?.columns == 40 && wide.count == 7)
        doc.pictureSizes["OEBPS/a.png"] = TextDocument.PixelSize(width: 100, height: 3000)
        let tall = LayoutEngine.layout(doc, options: options).lines.compactMap(\.picture)
        #expect(tall.count == 10 && tall.first!.columns <= 4)
    }

    @Test func theWordsOfAnSVGPageAreText() throws {
        let doc = try document("""
            <div><svg xmlns="http://www.w3.org/2000/svg"><style>.a{fill:red}</style><title>ignored</title>
            <text><tspan y="10">Sirop de </tspan><tspan y="10">Liège</tspan><tspan y="20">, second line</tspan></text>
            <text>SOUS LE VENT</text></svg></div>
            """)
        let text = doc.plainText
        // Same line (same y): joined as written; a new line: a space.
        #expect(text.contains("Sirop de Liège , second line SOUS LE VENT"), "\(text)")
        #expect(!text.contains("[image"))
        #expect(!text.contains("ignored") && !text.contains("fill"))
    }
}

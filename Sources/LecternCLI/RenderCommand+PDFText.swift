import ReaderUI
import Shared
import TextLayout

/// `lectern render` of a PDF without `--images`: its pages' text, page after page (a blank
/// line between them), reflowed and laid out as the reader's text mode shows it. Without
/// this, the PDF reached the content-document loader, which has no text for it.
extension RenderCommand {
    /// Prints the text of the PDF's pages (only `--page` when given); false when the
    /// publication is not a PDF with pages, or a resource is asked for with `--href`.
    func renderPDFText(_ publication: Publication, options: LayoutOptions) throws -> Bool {
        guard href == nil, let pages = PDFPageDocuments(publication) else { return false }
        if let page, page > pages.count {
            Output.error("\(path): there is no page \(page) (the publication has \(pages.count))")
            throw ExitStatus.someFailed
        }
        for (number, index) in (page.map { [$0 - 1] } ?? Array(0..<pages.count)).enumerated() {
            let document = pages.document(index)
            var stream = LayoutStream(options: options)
            var lines: [LayoutLine] = []
            for (blockIndex, block) in document.blocks.enumerated() {
                stream.append(block, index: blockIndex, to: &lines)
            }
            var bytes: [UInt8] = number > 0 ? [0x0A] : []
            for line in lines {
                line.appendText(to: &bytes)
                bytes.append(0x0A)
            }
            Output.text(String(decoding: bytes, as: UTF8.self))
        }
        Output.flush()
        return true
    }
}

import Pictures
import Shared
import TextLayout

/// When the picture libraries (gdk-pixbuf, libchafa, glib) are loaded ahead of need. Loading
/// them costs about 4 MB of memory (#28), so they are loaded only when a picture is about to
/// be drawn: a comic or a PDF, whose first page is a picture, starts them while it opens; a
/// reflowable book when a figure is on the page shown or the next one, never because it has a
/// cover or an image further on.
extension ReaderApp {
    /// File extensions of publications whose pages are pictures.
    static let pictureFirstExtensions: Set<String> = ["cbz", "cbr", "cb7", "divina", "pdf", "lcpdf"]

    /// Starts the picture libraries while `path` opens, if its pages are likely pictures.
    func warmUpPicturesWhileOpening(_ path: String) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        guard name.contains("."), Self.pictureFirstExtensions.contains(ext) else { return }
        warmUpPictures()
    }

    /// Starts the picture libraries once the publication is open, if its pages are pictures
    /// (an image in its reading order). Figures in the text start them as they come near
    /// (``warmUpPicturesForFigures(near:layout:)``).
    func warmUpPicturesIfNeeded(for publication: Publication, drawsPictures: Bool) {
        guard drawsPictures, Self.hasPictures(publication) else { return }
        warmUpPictures()
    }

    /// Whether `publication`'s reading order has a picture as a page (a comic, a cover page).
    static func hasPictures(_ publication: Publication) -> Bool {
        publication.readingOrder.contains { link in link.mediaType?.type == "image" }
    }

    /// Starts the picture libraries when a figure is on the page shown or on the next one: it
    /// is about to be drawn.
    func warmUpPicturesForFigures(near book: BookController, layout: LaidOutDocument) {
        guard !picturesWarmedUp else { return }
        let shown = book.state.visibleLines
        let ahead = shown.lowerBound..<min(layout.lines.endIndex, shown.upperBound + max(1, shown.count))
        guard ahead.contains(where: { layout.lines[$0].picture != nil }) else { return }
        warmUpPictures()
    }

    private func warmUpPictures() {
        guard pictureOutput.protocol != nil, !picturesWarmedUp else { return }
        picturesWarmedUp = true
        // Loading the libraries and decoding a first picture block: off the cooperative pool.
        Task { await Blocking.run { PicturesWarmUp.run() } }
    }
}

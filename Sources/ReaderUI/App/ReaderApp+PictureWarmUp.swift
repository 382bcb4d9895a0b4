import Pictures
import Shared

/// When the picture libraries (gdk-pixbuf, libchafa, glib) are loaded ahead of need. Loading
/// them costs about 5 MB of memory, so a book without pictures never loads them; a comic or a
/// PDF, whose first page is a picture, starts them while it opens.
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

    /// Starts the picture libraries once the publication is open, if it has pictures to draw.
    func warmUpPicturesIfNeeded(for publication: Publication, drawsPictures: Bool) {
        guard drawsPictures, Self.hasPictures(publication) else { return }
        warmUpPictures()
    }

    /// Whether any resource of `publication` is an image.
    static func hasPictures(_ publication: Publication) -> Bool {
        (publication.readingOrder + publication.manifest.resources).contains { link in
            link.mediaType?.type == "image"
        }
    }

    private func warmUpPictures() {
        guard pictureOutput.protocol != nil, !picturesWarmedUp else { return }
        picturesWarmedUp = true
        // Loading the libraries and decoding a first picture block: off the cooperative pool.
        Task { await Blocking.run { PicturesWarmUp.run() } }
    }
}

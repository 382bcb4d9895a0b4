import Bookshelf
import FoundationEssentials
import Pictures
import Shared
#if canImport(Glibc)
import Glibc
#endif

/// Finds the cover of a library entry for the bookshelf: from the thumbnail cache, else by
/// opening the publication (never asking for a password) and decoding its cover link (an
/// EPUB's `properties="cover-image"` or `<meta name="cover">`, a webpub's `cover` rel, a
/// comic's ComicInfo front cover), else its first comic or PDF page.
///
/// Protected publications (LCP, password ZIP or PDF, signed audiobooks, unknown DRM) show no
/// cover: they are not opened for it at all (opening one may need a passphrase or a License
/// Status server), and their pixels are never written to the cache.
struct ShelfCoverLoader: Sendable {
    let open: PublicationOpening
    /// Where thumbnails are kept.
    var directory: String = CoverThumbnailCache.folder

    /// The cover of `entry`. Opens and decodes off the main actor.
    func cover(of entry: LibraryEntry) async -> ShelfCover {
        guard entry.protection == .none else { return .none("Protected: no cover shown") }
        let directory = directory
        if let cached = await Blocking.run({ CoverThumbnailCache.read(identity: entry.identity, in: directory) }) { return cached }
        guard await Blocking.run({ access(entry.path, R_OK) == 0 }) else { return .none("File missing") }
        // calibre's cover.jpg (#34) is the one the person chose in calibre: it wins.
        if let path = entry.cover, let cover = await Blocking.run({ Self.decodeCoverFile(path) }) {
            await Blocking.run { CoverThumbnailCache.write(cover, identity: entry.identity, in: directory) }
            return cover
        }
        let publication: Publication
        switch await open(entry.path, false, nil) {
        case .success(let opened): publication = opened.publication
        case .failure: return .none("Cannot be opened")
        }
        // The library may not know yet that the file is protected (replaced in place).
        guard publication.contentProtectionService == nil else {
            publication.close()
            return .none("Protected: no cover shown")
        }
        let result = await Blocking.run { () -> (cover: ShelfCover, keep: Bool) in
            defer { publication.close() }
            return Self.decodeCover(of: publication)
        }
        if result.keep {
            let identity = entry.identity
            await Blocking.run { CoverThumbnailCache.write(result.cover, identity: identity, in: directory) }
        }
        return result.cover
    }

    /// The cover of an open, unprotected publication, and whether it says something lasting
    /// about the file (kept in the cache) rather than about this machine (a missing library).
    static func decodeCover(of publication: Publication) -> (cover: ShelfCover, keep: Bool) {
        let width = CoverThumbnailCache.maxWidth, height = CoverThumbnailCache.maxHeight
        do throws(PictureError) {
            if let link = coverLink(of: publication) {
                return (.picture(try PicturePages.decode(publication.get(link), maxWidth: width, maxHeight: height)), true)
            }
            if let pages = PicturePages(comic: publication) ?? PicturePages(pdf: publication) {
                return (.picture(try pages.bitmap(0, maxWidth: width, maxHeight: height)), true)
            }
            return (.none("No cover"), true)
        } catch {
            return (.none("No cover"), error != .libraryUnavailable)
        }
    }

    /// The picture in the file at `path` (calibre's `cover.jpg`), at most 16 MB read.
    static func decodeCoverFile(_ path: String) -> ShelfCover? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_size <= 16 << 20, let data = FileManager.default.contents(atPath: path),
              let bitmap = try? PictureDecoder.decode([UInt8](data), maxWidth: CoverThumbnailCache.maxWidth,
                                                      maxHeight: CoverThumbnailCache.maxHeight) else { return nil }
        return .picture(bitmap)
    }

    /// The first link with the `cover` relation that is a bitmap image.
    static func coverLink(of publication: Publication) -> Link? {
        let candidates = publication.links + publication.resources + publication.readingOrder
        return candidates.first { link in
            link.rels.contains("cover") && PicturePages.isBitmap(link)
        }
    }

}

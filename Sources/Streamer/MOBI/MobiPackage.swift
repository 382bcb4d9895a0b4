import FoundationEssentials
import LibMobi
import Shared

/// A Mobipocket or Kindle book rebuilt by libmobi, served as an EPUB package held in memory.
enum MobiPackage {
    /// The in-memory package of `book`: libmobi's parts, style sheets and images beside its
    /// `content.opf`, and a `META-INF/container.xml` naming it.
    static func fetcher(of book: MobiBook) -> MemoryFetcher {
        let container = """
            <?xml version="1.0"?>
            <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
            <rootfiles><rootfile full-path="\(MobiBook.packageName)" media-type="application/oebps-package+xml"/></rootfiles>
            </container>
            """
        return MemoryFetcher([MemoryFetcher.File(path: "META-INF/container.xml", bytes: Data(container.utf8), mediaType: .xml)]
            + book.files.map { MemoryFetcher.File(path: $0.name, bytes: $0.data, mediaType: MediaType($0.mediaType)) })
    }
}

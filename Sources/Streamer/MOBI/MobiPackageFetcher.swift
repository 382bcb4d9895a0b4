import FoundationEssentials
import LibMobi
import Shared

/// Serves a Mobipocket or Kindle book rebuilt by libmobi as an EPUB package held in memory:
/// `META-INF/container.xml` naming libmobi's `content.opf`, beside which lie the parts,
/// style sheets and images it names.
final class MobiPackageFetcher: Fetcher {
    let links: [Link]
    private let files: [String: Data]

    init(book: MobiBook) {
        var files: [String: Data] = [:]
        var links: [Link] = []
        let container = """
            <?xml version="1.0"?>
            <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
            <rootfiles><rootfile full-path="\(MobiBook.packageName)" media-type="application/oebps-package+xml"/></rootfiles>
            </container>
            """
        files["META-INF/container.xml"] = Data(container.utf8)
        links.append(Link(href: "META-INF/container.xml", mediaType: .xml))
        for file in book.files {
            files[file.name] = file.data
            links.append(Link(href: Href.fromPath(file.name), mediaType: MediaType(file.mediaType) ?? MediaType.of(path: file.name)))
        }
        self.files = files
        self.links = links
    }

    func get(_ link: Link, parameters: [String: String]) -> any Resource {
        guard let path = link.path, let data = files[path] else {
            return FailureResource(link: link, error: .notFound(link.href))
        }
        var link = link
        if link.mediaType == nil { link.mediaType = links.first(withHREF: link.href)?.mediaType }
        return BytesResource(link: link, bytes: data)
    }

    func close() {}
}

import LibPoppler
import Shared

/// The leaf fetcher of an encrypted PDF once its password is known, carrying the document the
/// password opened: the parser reads the document from it instead of opening the file again,
/// and never sees the password. Resources are served unchanged by the wrapped fetcher.
final class UnlockedPDFFetcher: Fetcher {
    let wrapped: any Fetcher
    let document: PDFDocument

    init(_ wrapped: any Fetcher, document: PDFDocument) {
        self.wrapped = wrapped
        self.document = document
    }

    var links: [Link] { wrapped.links }

    func get(_ link: Link, parameters: [String: String]) -> any Resource {
        wrapped.get(link, parameters: parameters)
    }

    func close() {
        document.close()
        wrapped.close()
    }
}

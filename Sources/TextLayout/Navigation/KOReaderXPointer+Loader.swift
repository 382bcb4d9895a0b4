import Shared

extension ContentDocumentLoader {
    /// The chapter of `link` converted as ``load(_:)`` does, with its ``KOReaderXPointerMap``:
    /// what a sync client needs to turn a place into KOReader's XPointer and back.
    public func koreaderXPointerMap(for link: Link) throws(ContentLoadError) -> (document: TextDocument, map: KOReaderXPointerMap) {
        let document = try load(link)
        let href = Href.removingFragment(link.href)
        let resource = publication.get(link)
        defer { resource.close() }
        switch resource.read() {
        case .success(let bytes): return (document, KOReaderXPointerMap(html: bytes, document: document))
        case .failure(let error): throw .resource(href: href, error)
        }
    }
}

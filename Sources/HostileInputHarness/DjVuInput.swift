import FoundationEssentials
import LibDjVu
import Shared
import Streamer

/// DjVu documents (djvulibre, read from memory), parsed as Lectern opens them — metadata,
/// outline, the publication — and then used as the reader uses them: the first pages' size,
/// hidden text and a small picture of each. A page count or page size a hostile directory
/// claims is bounded by `DjVuDocument`'s own limits; the harness reads a few pages only, so that
/// one input stays cheap.
public enum DjVuInput {
    /// Pages of each document read: sizes, text and a picture.
    static let pagesRead = 4

    /// The input is the document.
    public static func consume(_ bytes: [UInt8]) {
        let fetcher = MemoryFetcher([("fuzz.djvu", Data(bytes))])
        let asset = Asset(name: "fuzz.djvu", location: "", format: Format(kind: .djvu), fetcher: fetcher)
        do {
            guard let builder = try DjVuParser().parse(asset: asset, fetcher: fetcher, warnings: ListWarningLogger()) else {
                HarnessInvariant.check(false, "the DjVu parser declined a DjVu asset")
                return
            }
            PublicationProbe.probe(builder.build())
        } catch {
            _ = error.userMessage
        }
        let document: DjVuDocument
        do {
            document = try DjVuDocument(data: Data(bytes))
        } catch {
            _ = error.description
            return
        }
        defer { document.close() }
        HarnessInvariant.check(document.pageCount <= DjVuDocument.maxPageCount, "more pages than the limit")
        _ = document.metadata()
        _ = document.outline()
        for page in 0..<min(document.pageCount, pagesRead) {
            _ = document.pageInfo(page)
            _ = document.pageSize(page)
            _ = document.textBlocks(ofPage: page)?.map(\.text)
            if let image = document.renderPage(page, maxWidth: 48, maxHeight: 48) {
                HarnessInvariant.check(image.width <= 48 && image.height <= 48, "a page drawn larger than asked")
            }
        }
    }
}

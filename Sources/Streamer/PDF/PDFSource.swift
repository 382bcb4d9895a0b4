import FoundationEssentials
import LibPoppler
import Shared

/// Where the PDF of a publication is read from: a local file that poppler opens itself, or
/// bytes read whole through a fetcher — a remote PDF, or the decrypted PDF of an LCP package,
/// which is kept in memory and never written to disk.
enum PDFSource {
    case file(path: String)
    case bytes(Data)

    /// The href of a single-file PDF asset in its leaf fetcher: its file name for a local
    /// file, its URL for a remote one (see ``AssetRetriever``).
    static func href(of asset: Asset) -> String {
        Href.isAbsoluteURL(asset.location) ? asset.location : Href.fromPath(asset.name)
    }

    /// The source of a single-file PDF asset read through `fetcher`. The local file is opened
    /// directly only when `fetcher` is the asset's own leaf fetcher: a protection that wraps
    /// it may change what the bytes are.
    static func of(asset: Asset, fetcher: any Fetcher) -> ResourceResult<PDFSource> {
        if fetcher === asset.fetcher, !Href.isAbsoluteURL(asset.location) {
            return .success(.file(path: asset.location))
        }
        return read(Link(href: href(of: asset), mediaType: .pdf), from: fetcher).map(PDFSource.bytes)
    }

    /// Reads the PDF at `link` whole, refusing more than ``PDFDocument/maxInMemorySize``.
    static func read(_ link: Link, from fetcher: any Fetcher) -> ResourceResult<Data> {
        let resource = fetcher.get(link)
        defer { resource.close() }
        if case .success(let length) = resource.length, length > PDFDocument.maxInMemorySize {
            return .failure(.other(PDFError.tooLarge(length)))
        }
        return resource.read().flatMap { data in
            UInt64(data.count) > PDFDocument.maxInMemorySize ? .failure(.other(PDFError.tooLarge(UInt64(data.count)))) : .success(data)
        }
    }

    /// Opens the document with `password` (nil: no password, or the empty user password).
    func open(password: String?) throws(PDFError) -> PDFDocument {
        switch self {
        case .file(let path): try PDFDocument(path: path, password: password)
        case .bytes(let data): try PDFDocument(data: data, password: password)
        }
    }
}

import Shared
import LibZip

// TEMPORARY: replaced by the real sniffer (extension-only detection, to build the CLI on).
extension AssetRetriever {
    public func retrieve(path: String) throws(AssetError) -> Asset {
        guard FileKind(path: path) != nil else { throw .notFound(path) }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        let kinds: [String: Format.Kind] = ["epub": .epub, "webpub": .webpub, "audiobook": .audiobook, "cbz": .cbz,
                                            "zab": .zab, "lcpdf": .lcpdf, "lcpa": .lcpa, "pdf": .pdf, "json": .webpubManifest]
        guard let kind = kinds[ext] else { throw .unsupportedFormat(path, detected: nil) }
        if kind == .pdf || kind == .webpubManifest {
            let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
            return Asset(name: name, location: path, format: Format(kind: kind), fetcher: FileFetcher(paths: ["": folder]))
        }
        do {
            let fetcher = try ArchiveFetcher(path: path)
            let lcp = fetcher.archive.entry(at: "META-INF/license.lcpl") != nil || fetcher.archive.entry(at: "license.lcpl") != nil
            return Asset(name: name, location: path, format: Format(kind: kind, isLCPProtected: lcp), fetcher: fetcher)
        } catch {
            throw .damaged(path, reason: error.description)
        }
    }

    public func retrieve(url: String) throws(AssetError) -> Asset {
        throw .unsupportedFormat(url, detected: nil)
    }
}

import FoundationEssentials
import LibXML
import Shared

/// Finds the package document (OPF) through `META-INF/container.xml`.
enum EPUBContainerParser {
    static let containerPath = "META-INF/container.xml"
    /// Some Windows tools store the container with a backslash in its name (aeosynth/bk#36).
    static let windowsContainerPath = "META-INF\\container.xml"
    static let packageMediaType = "application/oebps-package+xml"

    /// The package path of the package document: the first `rootfile` whose media type is
    /// `application/oebps-package+xml` (the default rendition; others are alternatives).
    static func packagePath(in fetcher: any Fetcher, warnings: (any WarningLogger)?) throws(PublicationParseError) -> String {
        let data = try readContainer(fetcher, warnings: warnings)
        let document = try parseEPUBXML(data, href: containerPath)
        let rootfiles = document.root.descendants(named: "rootfile")
            .filter { $0.namespaceURI == nil || $0.namespaceURI == EPUBNamespace.container }
        let candidates = rootfiles.compactMap { rootfile -> (path: String, mediaType: String?)? in
            guard let fullPath = rootfile.attribute("full-path")?.trimmed, !fullPath.isEmpty,
                  let path = Href.path(of: fullPath), !path.isEmpty
            else { return nil }
            return (path, rootfile.attribute("media-type")?.trimmed.lowercased())
        }
        if let chosen = candidates.first(where: { $0.mediaType == packageMediaType }) {
            return chosen.path
        }
        // No media type at all is a common slip; a `.opf` name is evidence enough.
        if let guessed = candidates.first(where: { $0.mediaType == nil && $0.path.lowercased().hasSuffix(".opf") }) {
            warnings?.log(Warning("the rootfile has no media-type; using \(guessed.path)", severity: .minor,
                                  href: containerPath))
            return guessed.path
        }
        throw .invalid(href: containerPath, reason: "no rootfile of type \(packageMediaType) names the package document")
    }

    private static func readContainer(_ fetcher: any Fetcher, warnings: (any WarningLogger)?) throws(PublicationParseError) -> Data {
        switch fetcher.readXMLDocumentData(Link(href: EPUBHref.of(path: containerPath))) {
        case .success(let data):
            return data
        case .failure(.notFound):
            break
        case .failure(let error):
            throw .unreadableResource(href: containerPath, error)
        }
        switch fetcher.readXMLDocumentData(Link(href: EPUBHref.of(path: windowsContainerPath))) {
        case .success(let data):
            warnings?.log(Warning("the container file is stored as `\(windowsContainerPath)` (Windows path separator)",
                                  severity: .moderate, href: containerPath))
            return data
        case .failure(.notFound):
            throw .missingResource(href: containerPath, what: "the EPUB container file")
        case .failure(let error):
            throw .unreadableResource(href: windowsContainerPath, error)
        }
    }
}

/// The OCF checks that do not stop a publication from opening: they only warn.
enum EPUBPackageChecks {
    static let mimetype = "application/epub+zip"

    /// Refuses a container with an entry compressed otherwise than stored or Deflate: OCF 3.3
    /// (§4.2.4) requires reading systems to treat it as in error, even when libzip could
    /// read it (bzip2, LZMA, Zstandard…).
    static func checkCompression(of asset: Asset) throws(PublicationParseError) {
        guard let archive = (asset.fetcher as? ArchiveFetcher)?.archive else { return }
        for entry in archive.entries where entry.compressionMethod != 0 && entry.compressionMethod != 8 {
            throw .invalid(href: entry.path, reason: "compressed with \(methodName(entry.compressionMethod)); "
                + "an EPUB may only store or Deflate its entries")
        }
    }

    static func methodName(_ method: UInt16) -> String {
        switch method {
        case 9: "Deflate64 (ZIP method 9)"
        case 12: "bzip2 (ZIP method 12)"
        case 14: "LZMA (ZIP method 14)"
        case 93: "Zstandard (ZIP method 93)"
        case 95: "xz (ZIP method 95)"
        default: "ZIP method \(method)"
        }
    }

    /// Checks the `mimetype` entry: present, first, stored, exactly `application/epub+zip`.
    static func checkMimetype(in fetcher: any Fetcher, warnings: (any WarningLogger)?) {
        guard let warnings else { return }
        let (listsAny, firstPath, entry) = listing(of: fetcher, path: "mimetype")
        guard let entry else {
            // Fetchers that cannot list their content (HTTP) tell nothing here.
            if listsAny {
                warnings.log(Warning("the package has no `mimetype` entry", severity: .minor, href: "mimetype"))
            }
            return
        }
        if firstPath != "mimetype" {
            warnings.log(Warning("`mimetype` is not the first entry of the package", severity: .minor, href: "mimetype"))
        }
        if entry.properties["archive"]?["isEntryCompressed"]?.bool == true {
            warnings.log(Warning("`mimetype` is compressed; it should be stored", severity: .minor, href: "mimetype"))
        }
        let resource = fetcher.get(entry)
        defer { resource.close() }
        guard case .success(let data) = resource.read(range: 0..<256) else { return }
        let content = String(decoding: data, as: UTF8.self)
        if content == mimetype { return }
        if content.trimmed == mimetype {
            warnings.log(Warning("`mimetype` has white space around `\(mimetype)`", severity: .minor, href: "mimetype"))
        } else {
            warnings.log(Warning("`mimetype` holds `\(content.prefix(64))`, not `\(mimetype)`", severity: .moderate,
                                 href: "mimetype"))
        }
    }

    /// Whether the fetcher lists any resource, the path of the first and the link of `path`:
    /// from a ZIP archive's directory when the fetcher is the archive's own, without making a
    /// link for each of its entries (#28: thousands in a long book, before the first page).
    static func listing(of fetcher: any Fetcher, path: String) -> (listsAny: Bool, firstPath: String?, link: Link?) {
        if let archiveFetcher = fetcher as? ArchiveFetcher {
            let firstPath = archiveFetcher.archive.entries.first { !$0.isDirectory }?.path
            return (firstPath != nil, firstPath, archiveFetcher.link(atPath: path))
        }
        let links = fetcher.links
        return (!links.isEmpty, links.first?.path, links.first { $0.path == path })
    }
}

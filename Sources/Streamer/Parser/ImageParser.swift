import FoundationEssentials
import LibXML
import Shared

/// Parses comic book archives (CBZ): pages are the bitmap entries in natural file-name
/// order; `ComicInfo.xml` gives the metadata when present.
public struct ImageParser: PublicationParser {
    public init() {}

    public func parse(asset: Asset, fetcher: any Fetcher, warnings: (any WarningLogger)?) throws(PublicationParseError) -> PublicationBuilder? {
        guard asset.format.kind == .cbz else { return nil }
        var pages = fetcher.links.filter { link in
            guard let path = link.path, !isIgnoredEntry(path) else { return false }
            return link.mediaType?.isBitmap ?? false
        }
        pages.sort { naturallyPrecedes($0.href, $1.href) }
        guard !pages.isEmpty else { throw .invalid(href: nil, reason: "the comic book archive has no images") }
        for index in pages.indices { pages[index].properties.otherProperties["archive"] = nil }

        var metadata = Metadata(conformsTo: [Manifest.Profile.divina], title: .nonlocalized(AssetName.title(of: asset.name)))
        var coverIndex = 0
        if let infoLink = fetcher.links.first(where: { $0.path?.lowercased().hasSuffix("comicinfo.xml") ?? false }),
           case .success(let data) = fetcher.get(infoLink).read() {
            if let info = try? XMLDocument(xml: data) {
                ComicInfo.apply(info.root, to: &metadata, coverIndex: &coverIndex, pageCount: pages.count)
            } else {
                warnings.log("ComicInfo.xml is not well-formed and was ignored", severity: .minor, href: infoLink.href)
            }
        }
        pages[min(coverIndex, pages.count - 1)].rels.append("cover")
        let manifest = Manifest(metadata: metadata, readingOrder: pages)
        return PublicationBuilder(manifest: manifest, fetcher: fetcher, format: asset.format)
    }
}

/// The ComicInfo.xml vocabulary (ComicRack), mapped onto RWPM metadata.
enum ComicInfo {
    static func apply(_ root: XMLElement, to metadata: inout Metadata, coverIndex: inout Int, pageCount: Int) {
        func text(_ name: String) -> String? {
            root.firstChild(named: name).map(\.normalizedText).flatMap { $0.isEmpty ? nil : $0 }
        }
        func people(_ name: String) -> [Contributor] {
            (text(name) ?? "").split(separator: ",").map { Contributor(name: .nonlocalized($0.trimmed)) }
                .filter { !$0.name.isEmpty }
        }
        if let title = text("Title") { metadata.localizedTitle = .nonlocalized(title) }
        if let series = text("Series") {
            metadata.belongsTo["series"] = [Contributor(name: .nonlocalized(series), position: text("Number").flatMap(Double.init))]
        }
        metadata.authors = people("Writer")
        metadata.pencilers = people("Penciller")
        metadata.inkers = people("Inker")
        metadata.colorists = people("Colorist")
        metadata.letterers = people("Letterer")
        metadata.editors = people("Editor")
        metadata.artists = people("CoverArtist")
        metadata.publishers = people("Publisher")
        metadata.description = text("Summary")
        if let language = text("LanguageISO") { metadata.languages = [language] }
        if let year = text("Year") { metadata.published = year }
        if text("Manga")?.lowercased() == "yesandrighttoleft" { metadata.readingProgression = .rtl }
        if let pages = root.firstChild(named: "Pages") {
            for page in pages.children(named: "Page") where page.attribute("Type")?.lowercased() == "frontcover" {
                if let image = page.attribute("Image").flatMap(Int.init), image >= 0, image < pageCount {
                    coverIndex = image
                }
                break
            }
        }
    }
}

/// Helpers on asset names.
enum AssetName {
    /// The file name without its extension, for a publication without a title.
    static func title(of name: String) -> String {
        let base = name.split(separator: "/").last.map(String.init) ?? name
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return base }
        return String(base[..<dot])
    }
}

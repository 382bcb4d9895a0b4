import Shared

/// Parses zipped audio books without a manifest (ZAB): tracks are the audio entries in
/// natural file-name order; an image, when present, is the cover.
public struct AudioParser: PublicationParser {
    public init() {}

    public func parse(asset: Asset, fetcher: any Fetcher, warnings: (any WarningLogger)?) throws(PublicationParseError) -> PublicationBuilder? {
        guard asset.format.kind == .zab else { return nil }
        let usable = fetcher.links.filter { link in link.path.map { !isIgnoredEntry($0) } ?? false }
        var tracks = usable.filter { $0.mediaType?.isAudio ?? false }
        tracks.sort { naturallyPrecedes($0.href, $1.href) }
        guard !tracks.isEmpty else { throw .invalid(href: nil, reason: "the audio book archive has no audio files") }
        var resources = usable.filter { !($0.mediaType?.isAudio ?? false) }
        for index in tracks.indices { tracks[index].properties.otherProperties["archive"] = nil }
        for index in resources.indices { resources[index].properties.otherProperties["archive"] = nil }
        if let cover = resources.firstIndex(where: { $0.mediaType?.isBitmap ?? false }) {
            resources[cover].rels.append("cover")
        }
        let metadata = Metadata(type: "http://schema.org/Audiobook", conformsTo: [Manifest.Profile.audiobook],
                                title: .nonlocalized(AssetName.title(of: asset.name)))
        let manifest = Manifest(metadata: metadata, readingOrder: tracks, resources: resources)
        return PublicationBuilder(manifest: manifest, fetcher: fetcher, format: asset.format)
    }
}

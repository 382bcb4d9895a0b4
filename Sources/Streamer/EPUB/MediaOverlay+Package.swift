import Shared

/// What the package document says of media overlays: the `media-overlay` of manifest items
/// (a link property naming the SMIL document), the `media:duration` of each overlay and
/// `media:active-class` / `media:playback-active-class` (publication metadata).
extension Link {
    /// The href of the link's media overlay (a SMIL document), from the manifest's `media-overlay`.
    public var mediaOverlayHref: String? {
        get { properties["mediaOverlay"]?.string }
        set { properties["mediaOverlay"] = newValue.map(JSONValue.string) }
    }
}

extension Metadata {
    /// `media:active-class`: the class EPUB gives the element being read (Lectern highlights it
    /// in its own way; kept for the record and for web views).
    public var mediaOverlayActiveClass: String? {
        otherMetadata["mediaOverlay"]?.object?["activeClass"]?.string
    }

    /// `media:playback-active-class`: the class of the document while it plays.
    public var mediaOverlayPlaybackActiveClass: String? {
        otherMetadata["mediaOverlay"]?.object?["playbackActiveClass"]?.string
    }
}

extension EPUBManifestBuilder {
    /// Sets `link`'s ``Link/mediaOverlayHref`` from `item@media-overlay`; an id naming no item
    /// is reported and ignored. The overlay's own link gets its `media:duration`.
    func addMediaOverlay(to link: inout Link, item: OPFPackage.Item, indexByID: [String: Int]) {
        if let id = item.id, let duration = overlayDurations[id] { link.duration = duration }
        guard let id = item.mediaOverlay else { return }
        guard let index = indexByID[id] else {
            warnings?.log(Warning("the media-overlay \"\(id)\" of \"\(item.rawHref)\" is not in the manifest; ignored",
                                  severity: .minor, href: Href.path(of: package.href) ?? package.href))
            return
        }
        link.mediaOverlayHref = Href.removingFragment(package.items[index].href)
    }
}

extension EPUBMetadataParser {
    /// `media:duration` refining a manifest item, by item id.
    func mediaOverlayDurations() -> [String: Double] {
        var durations: [String: Double] = [:]
        for item in package.items {
            guard let id = item.id, let value = entries.refinement(of: id, OPFVocabulary.media + "duration"),
                  let seconds = ExternalNumbers.duration(SMILClockValue.seconds(value)) else { continue }
            durations[id] = seconds
        }
        return durations
    }

    /// `{"activeClass", "playbackActiveClass"}`, nil when the package declares neither.
    func mediaOverlayMetadata() -> JSONValue? {
        var object = JSONObject()
        object.set("activeClass", entries.metas(OPFVocabulary.media + "active-class").first?.content.nilIfEmpty.map(JSONValue.string))
        object.set("playbackActiveClass",
                   entries.metas(OPFVocabulary.media + "playback-active-class").first?.content.nilIfEmpty.map(JSONValue.string))
        return object.isEmpty ? nil : .object(object)
    }
}

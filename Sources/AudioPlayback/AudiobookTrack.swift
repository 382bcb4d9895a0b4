import Shared

/// One track of an audiobook's reading order.
public struct AudiobookTrack: Sendable, Hashable {
    /// Its position in the reading order.
    public let index: Int
    public let link: Link
    /// The title to show: the link's, else its file name.
    public let title: String
    /// The duration the manifest declares (seconds), a hint until the track is decoded.
    public let declaredDuration: Double?

    public init(index: Int, link: Link) {
        self.index = index
        self.link = link
        let name = Href.removingFragment(link.href).split(separator: "/").last.map(String.init) ?? link.href
        title = link.title ?? (Href.percentDecoded(name) ?? name)
        declaredDuration = link.duration.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
    }

    /// The tracks of `publication`: its reading order (every item is played; an audiobook's
    /// reading order is audio by profile).
    public static func tracks(of publication: Publication) -> [AudiobookTrack] {
        publication.readingOrder.enumerated().map { AudiobookTrack(index: $0.offset, link: $0.element) }
    }
}

/// An entry of an audiobook's table of contents, resolved to a track and a start time.
public struct AudiobookChapter: Sendable, Hashable {
    public let title: String
    /// The track it starts in.
    public let track: Int
    /// Its start in that track, in seconds (the `#t=` media fragment; 0 without one).
    public let start: Double
    /// Nesting depth in the table of contents (0 at the top).
    public let level: Int

    public init(title: String, track: Int, start: Double, level: Int) {
        self.title = title
        self.track = track
        self.start = start
        self.level = level
    }

    /// The chapters of `toc` that point into `tracks`, in reading order (depth-first; entries
    /// pointing elsewhere are left out).
    public static func chapters(of toc: [Link], tracks: [AudiobookTrack]) -> [AudiobookChapter] {
        var chapters: [AudiobookChapter] = []
        func visit(_ links: [Link], level: Int) {
            for link in links {
                if let track = index(of: link.href, in: tracks) {
                    let start = Href.fragment(of: link.href).flatMap(MediaFragment.start(in:)) ?? 0
                    chapters.append(AudiobookChapter(title: link.title ?? tracks[track].title, track: track,
                                                     start: start, level: level))
                }
                visit(link.children, level: level + 1)
            }
        }
        visit(toc, level: 0)
        // Stable sort: a table of contents out of order still navigates forwards.
        return chapters.enumerated().sorted {
            ($0.element.track, $0.element.start, $0.offset) < ($1.element.track, $1.element.start, $1.offset)
        }.map(\.element)
    }

    /// The track whose href is `href` without its fragment.
    static func index(of href: String, in tracks: [AudiobookTrack]) -> Int? {
        let bare = Href.removingFragment(href)
        if let exact = tracks.firstIndex(where: { Href.removingFragment($0.link.href) == bare }) { return exact }
        let decoded = Href.percentDecoded(bare) ?? bare
        return tracks.firstIndex { (Href.percentDecoded(Href.removingFragment($0.link.href)) ?? $0.link.href) == decoded }
    }
}

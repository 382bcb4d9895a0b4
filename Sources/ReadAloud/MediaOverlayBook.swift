import FoundationEssentials
import Shared
import Streamer

/// The media overlays of a publication, in reading order: what read-aloud plays.
public struct MediaOverlayBook: Sendable {
    /// One content document of the reading order and its overlay.
    public struct Chapter: Sendable {
        /// Its index in the reading order.
        public let readingOrderIndex: Int
        /// The content document.
        public let link: Link
        public let overlay: MediaOverlay
        /// The overlay's `media:duration` (the sum of its clips), when the package declares it.
        public let declaredDuration: Double?

        public init(readingOrderIndex: Int, link: Link, overlay: MediaOverlay, declaredDuration: Double? = nil) {
            self.readingOrderIndex = readingOrderIndex
            self.link = link
            self.overlay = overlay
            self.declaredDuration = declaredDuration
        }
    }

    public let chapters: [Chapter]

    /// Whether `publication` declares any media overlay (without reading one).
    public static func declared(in publication: Publication) -> Bool {
        publication.readingOrder.contains { $0.mediaOverlayHref != nil }
    }

    /// Reads the overlay of every content document that has one, through the publication's
    /// fetcher (so decrypted in memory for a protected book). An unreadable or invalid overlay,
    /// or one naming a resource the publication does not have, is an error: its timing would
    /// be wrong for the rest of the book.
    public init(publication: Publication) throws(MediaOverlayError) {
        let known = Set((publication.readingOrder + publication.resources).compactMap { $0.path })
        var chapters: [Chapter] = []
        for (index, link) in publication.readingOrder.enumerated() {
            guard let href = link.mediaOverlayHref else { continue }
            let overlay = try MediaOverlayParser.parse(try Self.read(href, in: publication), href: href)
            for phrase in overlay.phrases {
                for target in [phrase.textHref, phrase.clip?.href].compactMap({ $0 }) {
                    guard let path = Href.path(of: target), known.contains(path) else {
                        throw .invalid(href: href, line: nil,
                                       reason: "it refers to \(TerminalText.singleLine(target)), which is not in the publication")
                    }
                }
            }
            let declared = publication.resources.first { $0.href == href }?.duration
            chapters.append(Chapter(readingOrderIndex: index, link: link, overlay: overlay, declaredDuration: declared))
        }
        self.chapters = chapters
    }

    public init(chapters: [Chapter]) {
        self.chapters = chapters
    }

    private static func read(_ href: String, in publication: Publication) throws(MediaOverlayError) -> Data {
        let resource = publication.get(href)
        defer { resource.close() }
        if case .success(let length) = resource.length, length > UInt64(MediaOverlayParser.maxSize) {
            throw .tooLarge(href: href, reason: "\(length) bytes, more than the \(MediaOverlayParser.maxSize) accepted")
        }
        switch resource.read() {
        case .success(let data): return data
        case .failure(let error): throw .unreadable(href: href, reason: "\(error)")
        }
    }

    /// The audio files the overlays play, in order of first use.
    public var audioHrefs: [String] {
        var seen = Set<String>()
        return chapters.flatMap { $0.overlay.phrases.compactMap { $0.clip?.href } }.filter { seen.insert($0).inserted }
    }
}

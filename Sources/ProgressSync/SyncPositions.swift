import FoundationEssentials
import Shared
import TextLayout

/// A place of the library (a ``Locator``) as kosync's `progress` and `percentage`, and back.
///
/// PDF pages and comic pages are page numbers (KOReader's paged documents); reflowable books
/// are KOReader's XPointers (``KOReaderXPointerMap``), read from the chapter's text. Every
/// call may read and convert a chapter: call off the main actor.
public enum SyncPositions {
    /// What a library place is on the wire.
    public struct Outgoing: Sendable, Equatable {
        public var progress: String
        public var percentage: Double

        public init(progress: String, percentage: Double) {
            self.progress = progress
            self.percentage = percentage
        }
    }

    /// A pulled place turned into a library place, and how it was found.
    public struct Incoming: Sendable {
        public var locator: Locator
        public var percentage: Double
        public var how: How
        /// The XPointer of the place moved to (reflowable books), as Lectern writes it.
        public var xpointer: String?
    }

    /// How a pulled place was found.
    public enum How: Sendable, Equatable {
        /// By its page number.
        case page(Int)
        /// By its XPointer.
        case xpointer
        /// By its percentage, the `progress` not resolving in this copy (the reason why).
        case percentage(String)
    }

    /// Whether the publication is synced by page numbers: a PDF, or a comic (every item of
    /// the reading order a picture).
    static func pageCount(of publication: Publication) -> Int? {
        if let pages = publication.pageTextService, pages.pageCount > 0 { return pages.pageCount }
        let order = publication.readingOrder
        if !order.isEmpty, order.allSatisfy({ $0.mediaType?.isBitmap == true }) { return order.count }
        return nil
    }

    /// The wire form of the place `locator` (nil: the start), `progress` the book-wide
    /// progression the library keeps for it.
    public static func outgoing(_ locator: Locator?, progress: Double?, in publication: Publication) -> Outgoing {
        let order = publication.readingOrder
        let chapter = locator.flatMap { chapterIndex(of: $0.href, in: publication) } ?? 0
        let within = min(1, max(0, locator?.locations.progression ?? 0))
        let percentage = progress ?? locator?.locations.totalProgression
            ?? (order.isEmpty ? 0 : (Double(chapter) + within) / Double(order.count))
        if let pages = pageCount(of: publication) {
            let page: Int
            if publication.pageTextService != nil, let href = locator?.href, let number = pdfPage(in: href) {
                page = number
            } else {
                page = chapter + 1
            }
            let clamped = min(max(1, page), pages)
            return Outgoing(progress: String(clamped), percentage: KosyncPlace.rounded(progress ?? Double(clamped - 1) / Double(pages)))
        }
        guard order.indices.contains(chapter),
              let (document, map) = try? ContentDocumentLoader(publication: publication).koreaderXPointerMap(for: order[chapter]),
              let pointer = map.xpointer(at: min(Int((within * Double(document.length)).rounded()), max(0, document.length - 1)),
                                         fragment: chapter + 1, fragmentCount: order.count) else {
            // A chapter without text: its start, which KOReader resolves too.
            return Outgoing(progress: "/body/DocFragment[\(chapter + 1)]/body", percentage: KosyncPlace.rounded(percentage))
        }
        return Outgoing(progress: pointer.description, percentage: KosyncPlace.rounded(percentage))
    }

    /// The library place of a pulled `place`. `chapterLengths` (the library's count of each
    /// chapter's characters, when made) places a percentage precisely; without it, chapters
    /// count alike.
    public static func incoming(_ place: KosyncPlace, in publication: Publication, chapterLengths: [Int]? = nil) -> Incoming {
        let order = publication.readingOrder
        if let pages = pageCount(of: publication) {
            let number = Int(place.progress.trimmed).map { min(max(1, $0), pages) }
                ?? min(pages, Int(place.percentage * Double(pages)) + 1)
            let href: String
            if publication.pageTextService != nil {
                href = (order.first.map { Href.removingFragment($0.href) } ?? "document.pdf") + "#page=\(number)"
            } else {
                href = order[number - 1].href
            }
            var locator = Locator(href: href, mediaType: nil)
            locator.locations.progression = 0
            locator.locations.totalProgression = place.percentage
            let how: How = Int(place.progress.trimmed) != nil ? .page(number) : .percentage("\"\(place.progress)\" is not a page number")
            return Incoming(locator: locator, percentage: place.percentage, how: how, xpointer: nil)
        }
        let reason: String
        if let pointer = KOReaderXPointer(parsing: place.progress) {
            if order.indices.contains(pointer.fragment - 1),
               let (document, map) = try? ContentDocumentLoader(publication: publication).koreaderXPointerMap(for: order[pointer.fragment - 1]),
               let offset = map.offset(of: pointer) {
                var locator = Locator(href: order[pointer.fragment - 1].href, mediaType: order[pointer.fragment - 1].mediaType)
                locator.locations.progression = document.length > 0 ? Double(offset) / Double(document.length) : 0
                locator.locations.totalProgression = place.percentage
                let written = map.xpointer(at: offset, fragment: pointer.fragment, fragmentCount: order.count)
                return Incoming(locator: locator, percentage: place.percentage, how: .xpointer, xpointer: written?.description ?? place.progress)
            }
            reason = "its XPointer does not resolve in this copy"
        } else {
            reason = place.progress.isEmpty ? "it has no XPointer" : "its progress is not an XPointer"
        }
        var locator = locatorAt(percentage: place.percentage, in: publication, chapterLengths: chapterLengths)
        locator.locations.totalProgression = place.percentage
        var xpointer: String?
        if let index = chapterIndex(of: locator.href, in: publication),
           let (document, map) = try? ContentDocumentLoader(publication: publication).koreaderXPointerMap(for: order[index]) {
            let offset = min(Int(((locator.locations.progression ?? 0) * Double(document.length)).rounded()), max(0, document.length - 1))
            xpointer = map.xpointer(at: offset, fragment: index + 1, fragmentCount: order.count)?.description
        }
        return Incoming(locator: locator, percentage: place.percentage, how: .percentage(reason), xpointer: xpointer)
    }

    /// The place `percentage` of the way through the reading order.
    static func locatorAt(percentage: Double, in publication: Publication, chapterLengths: [Int]?) -> Locator {
        let order = publication.readingOrder
        guard !order.isEmpty else { return Locator(href: "", mediaType: nil) }
        let lengths = chapterLengths.flatMap { $0.count == order.count && $0.reduce(0, +) > 0 ? $0 : nil }
            ?? Array(repeating: 1, count: order.count)
        let total = Double(lengths.reduce(0, +))
        var target = min(1, max(0, percentage)) * total
        var chapter = 0
        while chapter < order.count - 1, target >= Double(lengths[chapter]) {
            target -= Double(lengths[chapter])
            chapter += 1
        }
        var locator = Locator(href: order[chapter].href, mediaType: order[chapter].mediaType)
        locator.locations.progression = lengths[chapter] > 0 ? min(1, target / Double(lengths[chapter])) : 0
        return locator
    }

    static func chapterIndex(of href: String, in publication: Publication) -> Int? {
        if publication.pageTextService != nil, let page = pdfPage(in: href) { return page - 1 }
        let path = Href.removingFragment(href)
        return publication.readingOrder.firstIndex { Href.removingFragment($0.href) == path }
    }

    /// N of a PDF href's `#page=N`.
    static func pdfPage(in href: String) -> Int? {
        guard let fragment = Href.fragment(of: href), fragment.hasPrefix("page=") else { return nil }
        return Int(fragment.dropFirst(5))
    }
}

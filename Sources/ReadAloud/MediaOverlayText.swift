import Shared
import Streamer
import TextLayout

/// The text each phrase of a chapter's overlay designates, from the chapter's
/// ``TextDocument``: its element's anchor, up to the next phrase's element or the end of the
/// element's blocks, whichever comes first (an anchor knows where an inline element starts,
/// not where it ends; overlays mark consecutive sentences, so the next one ends it).
public struct MediaOverlayText: Sendable {
    private var texts: [String: String] = [:]

    /// - Parameters:
    ///   - document: the converted content document.
    ///   - fragments: the ids the overlay reads in it.
    public init(document: TextDocument, fragments: [String]) {
        let starts = fragments.compactMap { document.anchors[$0] }.map(\.offset).sorted()
        for fragment in Set(fragments) {
            guard let anchor = document.anchors[fragment] else { continue }
            let blocksEnd = anchor.blocks.upperBound <= document.blocks.count && anchor.blocks.upperBound > 0
                ? document.blocks[anchor.blocks.upperBound - 1].offset + document.blocks[anchor.blocks.upperBound - 1].length
                : document.length
            let nextStart = Self.firstGreater(than: anchor.offset, in: starts) ?? blocksEnd
            let end = max(anchor.offset, min(blocksEnd, nextStart))
            texts[fragment] = Self.collapsed(document.text(in: anchor.offset..<end))
        }
    }

    /// The text of the element with id `fragment`, whitespace collapsed; nil when the chapter
    /// has no such element.
    public func text(ofFragment fragment: String) -> String? { texts[fragment] }

    private static func firstGreater(than value: Int, in sorted: [Int]) -> Int? {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] <= value { low = middle + 1 } else { high = middle }
        }
        return low < sorted.count ? sorted[low] : nil
    }

    private static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}

/// The texts of a book's phrases, each chapter converted when one of its phrases is first
/// asked for (through the publication, so decrypted in memory for a protected book).
public struct MediaOverlayTexts {
    private let loader: ContentDocumentLoader
    private let fragmentsByDocument: [String: [String]]
    private var chapters: [String: MediaOverlayText?] = [:]

    public init(publication: Publication, book: MediaOverlayBook) {
        loader = ContentDocumentLoader(publication: publication)
        var fragments: [String: [String]] = [:]
        for chapter in book.chapters {
            for phrase in chapter.overlay.phrases {
                if let fragment = phrase.fragment { fragments[phrase.textHref, default: []].append(fragment) }
            }
        }
        fragmentsByDocument = fragments
    }

    /// The text `phrase` designates; nil when its document or element cannot be found.
    public mutating func text(of phrase: MediaOverlayPhrase) -> String? {
        if chapters[phrase.textHref] == nil {
            let document = try? loader.load(href: phrase.textHref)
            chapters[phrase.textHref] = .some(document.map {
                MediaOverlayText(document: $0, fragments: fragmentsByDocument[phrase.textHref] ?? [])
            })
        }
        guard let chapter = chapters[phrase.textHref] ?? nil else { return nil }
        guard let fragment = phrase.fragment else { return nil }
        return chapter.text(ofFragment: fragment)
    }
}

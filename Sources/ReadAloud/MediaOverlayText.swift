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

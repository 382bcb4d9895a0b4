import Annotations
import Shared
import TextLayout

/// Finds a quote in a book's text as the reader counts it: each reading-order item's
/// ``TextDocument/plainText`` (offsets in characters), in reading order, so that the target it
/// makes is where the reader draws the highlight.
struct AnnotationQuoteFinder {
    let publication: Publication

    /// How many characters of context are kept on each side of the quote.
    static let contextLength = 32

    /// Why a quote could not be placed.
    enum Failure: Error {
        /// It occurs `found` times in the book, fewer than the occurrence asked for.
        case notFound(found: Int)
        /// A chapter could not be read.
        case unreadable(String)
    }

    /// The target of the `occurrence`-th (from 1) occurrence of `quote` in the book.
    func target(of quote: String, occurrence: Int) throws(Failure) -> AnnotationTarget {
        let loader = ContentDocumentLoader(publication: publication)
        var documents: [TextDocument?] = []
        for link in publication.readingOrder {
            do throws(ContentLoadError) {
                documents.append(try loader.load(link))
            } catch {
                switch error {
                case .notText, .malformed: documents.append(nil)
                case .resource: throw .unreadable(error.userMessage)
                }
            }
        }
        let texts = documents.map { $0?.plainText }
        let lengths = texts.map { $0?.count ?? 0 }
        let total = lengths.reduce(0, +)
        var found = 0
        for (chapter, text) in texts.enumerated() {
            guard let text else { continue }
            for range in text.ranges(of: quote) {
                found += 1
                guard found == occurrence else { continue }
                let start = text.distance(from: text.startIndex, to: range.lowerBound)
                let end = start + text.distance(from: range.lowerBound, to: range.upperBound)
                let link = publication.readingOrder[chapter]
                let href = Href.removingFragment(link.href)
                let context = TextQuote(exact: String(text[range]),
                                        prefix: String(text[..<range.lowerBound].suffix(Self.contextLength)),
                                        suffix: String(text[range.upperBound...].prefix(Self.contextLength)))
                return AnnotationTarget(
                    href: href, type: link.mediaType?.string,
                    progression: lengths[chapter] > 0 ? Double(start) / Double(lengths[chapter]) : 0,
                    totalProgression: total > 0 ? min(1, Double(lengths[..<chapter].reduce(0, +) + start) / Double(total)) : nil,
                    textRange: start..<end, quote: context,
                    headings: Self.headings(in: publication.tableOfContents, href: href, at: start, of: documents[chapter]))
            }
        }
        throw .notFound(found: found)
    }

    /// The titles of the contents entry `offset` of `href` is under and of its parents,
    /// outermost first: the last entry of the resource whose fragment starts at or before it
    /// (an entry without a fragment starts at 0).
    static func headings(in entries: [Link], href: String, at offset: Int, of document: TextDocument?) -> [String] {
        var best: [String] = []
        func visit(_ entries: [Link], _ path: [String]) {
            for entry in entries {
                let titles = path + (entry.title.map { [$0] } ?? [])
                if Href.removingFragment(entry.href) == href {
                    let fragment = entry.href.firstIndex(of: "#").map { String(entry.href[entry.href.index(after: $0)...]) }
                    let start = fragment.map { document?.offset(ofFragment: $0) ?? Int.max } ?? 0
                    if start <= offset || best.isEmpty { best = titles }
                }
                visit(entry.children, titles)
            }
        }
        visit(entries, [])
        return best
    }
}

import FoundationEssentials
import Shared

/// Parses plain text (`.txt`): the encoding is detected (``TextDecoding``), a Project Gutenberg
/// frame gives the title and authors and is left out (``GutenbergText``), and the text becomes
/// one generated XHTML document per chapter (``TextChapters``), served from memory.
public struct TextParser: PublicationParser {
    /// The largest text file read (a whole novel is a few megabytes).
    public static let maxLength: UInt64 = 64 << 20

    public init() {}

    public func parse(asset: Asset, fetcher: any Fetcher, warnings: (any WarningLogger)?) throws(PublicationParseError) -> PublicationBuilder? {
        guard asset.format.kind == .text else { return nil }
        let href = Href.isAbsoluteURL(asset.location) ? asset.location : Href.fromPath(asset.name)
        let data = try BoundedRead.data(fetcher.get(Link(href: href)), href: href, limit: Self.maxLength, what: "the text file")
        let text: String
        do {
            text = try TextDecoding.decode(data).text
        } catch {
            throw .invalid(href: href, reason: error.description)
        }
        let lines = TextChapters.lines(of: text)
        let gutenberg = GutenbergText(lines: lines)
        let structure = TextChapters(lines: gutenberg?.body ?? lines[...])
        let title = gutenberg?.title ?? AssetName.title(of: asset.name)
        let language = gutenberg?.language
        let book = GeneratedBook(title: title, language: language, hrefPrefix: "text/chapter-")
        let documents = structure.chapters.enumerated().map { index, chapter in
            GeneratedBook.Document(title: chapter.title, isGroup: chapter.rank == .part) {
                TextChapters.xhtmlBody(of: chapter, id: "c\(index + 1)")
            }
        }
        var metadata = Metadata(title: .nonlocalized(title), languages: language.map { [$0] } ?? [])
        metadata.authors = (gutenberg?.authors ?? []).map { Contributor(name: .nonlocalized($0)) }
        return book.builder(documents: documents, metadata: metadata, base: fetcher, format: asset.format)
    }
}

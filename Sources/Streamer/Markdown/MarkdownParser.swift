import FoundationEssentials
import LibCMark
import Shared

/// Parses Markdown (`.md`) through cmark-gfm: the document becomes one generated XHTML
/// document served at the Markdown file's own href, so that its relative pictures resolve
/// beside it; its headings make the contents, its first top heading the title.
public struct MarkdownParser: PublicationParser {
    /// The largest Markdown file read.
    public static let maxLength: UInt64 = 32 << 20

    public init() {}

    public func parse(asset: Asset, fetcher: any Fetcher, warnings: (any WarningLogger)?) throws(PublicationParseError) -> PublicationBuilder? {
        guard asset.format.kind == .markdown else { return nil }
        let href = Href.isAbsoluteURL(asset.location) ? asset.location : Href.fromPath(asset.name)
        let data = try BoundedRead.data(fetcher.get(Link(href: href)), href: href, limit: Self.maxLength, what: "the Markdown file")
        if data.prefix(65536).contains(0) { throw .invalid(href: href, reason: "it is not text (binary content)") }
        if let offset = TextDecoding.firstInvalidUTF8([UInt8](data)[...]) {
            throw .invalid(href: href, reason: "it is not valid UTF-8 at byte \(offset)")
        }
        let rendered: CommonMark.Rendered
        do { rendered = try CommonMark.render(data) } catch { throw .invalid(href: href, reason: error.description) }
        let title = rendered.headings.first(where: { $0.level == 1 })?.text ?? AssetName.title(of: asset.name)
        let headings = rendered.headings.map { HeadingOutline.Heading(level: $0.level, title: $0.text, href: href + "#" + $0.id) }
        var contents = HeadingOutline.contents(headings)
        if contents.isEmpty { contents = [Link(href: href, title: title)] }

        let pictures = LocalReferences.pictures(rendered.imageURLs, from: href)
        let link = Link(href: href, mediaType: .xhtml, title: title)
        let document = XHTMLWriter.document(title: title, language: nil, body: Self.markingNotes(rendered.html))
        let generated = GeneratedFetcher(entries: [GeneratedFetcher.Entry(link: link) { .success(Data(document.utf8)) }],
                                         listing: pictures, base: fetcher)
        let manifest = Manifest(metadata: Metadata(title: .nonlocalized(title)), readingOrder: [link], resources: pictures,
                                tableOfContents: contents)
        return PublicationBuilder(manifest: manifest, fetcher: generated, format: asset.format)
    }

    /// cmark's footnote references as note references the reader opens in a popup, and its
    /// valueless attributes given a value (well-formed XHTML). cmark escapes `>` in text, so
    /// these attribute runs only occur in its own tags.
    static func markingNotes(_ html: String) -> String {
        html.replacing(" data-footnote-ref>", with: " data-footnote-ref=\"\" role=\"doc-noteref\">")
            .replacing(" data-footnotes>", with: " data-footnotes=\"\">")
            .replacing(" data-footnote-backref ", with: " data-footnote-backref=\"\" ")
    }
}

extension PublicationOpener {
    /// The parsers of documents that are no package (plain text, Markdown, HTML, FB2, and
    /// DOCX/ODT/RTF through pandoc): each generates or serves XHTML the layout reads like an
    /// EPUB's.
    public static var documentParsers: [any PublicationParser] {
        [TextParser(), MarkdownParser(), HTMLParser(), FB2Parser(), PandocParser()]
    }
}

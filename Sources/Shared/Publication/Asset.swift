/// A file or URL to open, with its sniffed format and the leaf fetcher that reads it
/// (an ``ArchiveFetcher`` for a package, a ``FileFetcher`` or ``HTTPFetcher`` otherwise).
public struct Asset: Sendable {
    /// The file name, for messages and as a fallback title.
    public var name: String
    /// The local path or the URL.
    public var location: String
    public var format: Format
    /// Low-level access to the asset's content.
    public var fetcher: any Fetcher

    public init(name: String, location: String, format: Format, fetcher: any Fetcher) {
        self.name = name
        self.location = location
        self.format = format
        self.fetcher = fetcher
    }
}

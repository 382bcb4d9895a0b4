import Shared

/// Opens assets as publications: runs the content protections (third-party first, in order,
/// then the format-specific ones, then the fallback that recognises what Lectern cannot
/// unlock), then the parsers, then the builder transforms (the Streamer of the Readium
/// Content Protection proposal).
public final class PublicationOpener: Sendable {
    /// Third-party protections given by the application (LCP, signed audiobooks).
    public let contentProtections: [any ContentProtection]
    /// Protections tied to a format (ZIP and PDF passwords), tried after the third-party ones.
    public let formatProtections: [any ContentProtection]
    public let parsers: [any PublicationParser]
    private let onAskCredentials: OnAskCredentials?

    /// - Parameters:
    ///   - contentProtections: third-party protections, tried in order before the built-in ones.
    ///   - onAskCredentials: how protections ask the person for a password or passphrase.
    ///   - parsers: the publication parsers; defaults to ``defaultParsers``.
    public init(contentProtections: [any ContentProtection] = [],
                formatProtections: [any ContentProtection]? = nil,
                onAskCredentials: OnAskCredentials? = nil,
                parsers: [any PublicationParser]? = nil) {
        self.contentProtections = contentProtections
        self.formatProtections = formatProtections ?? PublicationOpener.defaultFormatProtections
        self.onAskCredentials = onAskCredentials
        self.parsers = parsers ?? PublicationOpener.defaultParsers
    }

    /// The parsers Lectern ships, in the order they are tried (the PDF parser before the
    /// Readium one, since it takes LCP PDF packages).
    public static var defaultParsers: [any PublicationParser] {
        [EPUBParser(), PDFParser(), ReadiumWebPubParser(), ImageParser(), ComicArchiveParser(), MOBIParser(), DjVuParser(), AudioParser()]
            + documentParsers
    }

    /// The format-specific protections Lectern ships.
    public static var defaultFormatProtections: [any ContentProtection] {
        [ZIPPasswordContentProtection(), PDFContentProtection(), KindleDRMContentProtection()]
    }

    /// Opens `asset`.
    ///
    /// - Parameters:
    ///   - allowUserInteraction: whether protections may prompt (true when the person opens
    ///     a publication to read it, false when importing).
    ///   - credentials: a password or passphrase to try first.
    ///   - sender: context passed through to the prompt.
    ///   - onCreatePublication: a last transformation of the builder.
    ///   - warnings: receives what was tolerated.
    ///   - deferringNavigation: leaves a navigation the parser deferred (an EPUB's table of
    ///     contents) to be read when first asked for, as a reader wants before its first page;
    ///     its warnings then arrive at that time. By default it is read before returning.
    public func open(asset: Asset, allowUserInteraction: Bool, credentials: String? = nil,
                     sender: (any Sendable)? = nil, onCreatePublication: PublicationBuilder.Transform? = nil,
                     warnings: (any WarningLogger)? = nil,
                     deferringNavigation: Bool = false) async throws(OpeningError) -> Publication {
        var asset = asset
        var fetcher = asset.fetcher
        var protectionTransform: PublicationBuilder.Transform?

        // Only one protection per publication: the first that claims the asset wins.
        let protections = contentProtections + formatProtections + [FallbackContentProtection()]
        for protection in protections {
            if let protected = try await protection.open(
                asset: asset, fetcher: fetcher, credentials: credentials, allowUserInteraction: allowUserInteraction,
                sender: sender, onAskCredentials: onAskCredentials
            ) {
                asset = protected.asset
                fetcher = protected.fetcher
                protectionTransform = protected.onCreatePublication
                break
            }
        }

        for parser in parsers {
            let parsed: PublicationBuilder?
            do {
                parsed = try parser.parse(asset: asset, fetcher: fetcher, warnings: warnings)
            } catch {
                if case .unsupported(let reason) = error { throw .unsupportedFormat(reason) }
                throw .parsingFailed(error)
            }
            guard var builder = parsed else { continue }
            if builder.format == nil { builder.format = asset.format }
            builder.apply(protectionTransform)
            builder.apply(onCreatePublication)
            if !deferringNavigation { _ = builder.manifest.tableOfContents }
            return builder.build()
        }
        throw .unsupportedFormat(Format.describe(asset.format))
    }
}

import LCP
import Shared
import Streamer

/// Opens a path or URL as a publication, with every protection Lectern has: the composition
/// root shared by the commands.
struct PublicationLoader: Sendable {
    /// The HTTP client for remote assets and resources (`lectern serve --header` injects
    /// credentials through it); nil for the default one.
    var httpClient: (any HTTPClient)?

    var retriever: AssetRetriever {
        httpClient.map { AssetRetriever(httpClient: $0) } ?? AssetRetriever()
    }

    /// The parsers, with ``httpClient`` for the remote resources they reach.
    var parsers: [any PublicationParser]? {
        httpClient.map { [EPUBParser(), PDFParser(httpClient: $0), ReadiumWebPubParser(httpClient: $0), ImageParser(), AudioParser()] }
    }

    /// The third-party protections, in order of precedence: Readium LCP (its service made
    /// on the first LCP asset), then signed Feedbooks audiobook manifests.
    var contentProtections: [any ContentProtection] {
        [DeferredLCPProtection(), AudiobookDRMSetup.makeProtection()]
    }

    /// A successfully opened publication with what was tolerated on the way.
    struct Opened: Sendable {
        let asset: Asset
        let publication: Publication
        let warnings: [Warning]
    }

    /// Retrieves and opens `location` without prompting.
    ///
    /// - Parameter deferringNavigation: leaves an EPUB's table of contents to be read when first
    ///   asked for (the reader, before its first page); its warnings are then not in `warnings`.
    func open(_ location: String, credentials: String?, allowUserInteraction: Bool = false,
              onAskCredentials: OnAskCredentials? = nil, deferringNavigation: Bool = false) async throws(LoadError) -> Opened {
        let asset: Asset
        do {
            asset = Href.isHTTP(location) ? try retriever.retrieve(url: location) : try retriever.retrieve(path: location)
        } catch {
            throw .asset(error)
        }
        let warnings = ListWarningLogger()
        let opener = PublicationOpener(contentProtections: contentProtections, onAskCredentials: onAskCredentials, parsers: parsers)
        do {
            let publication = try await opener.open(asset: asset, allowUserInteraction: allowUserInteraction,
                                                    credentials: credentials, warnings: warnings,
                                                    deferringNavigation: deferringNavigation)
            return Opened(asset: asset, publication: publication, warnings: warnings.warnings)
        } catch {
            asset.fetcher.close()
            throw .opening(error)
        }
    }
}

/// Why a publication could not be opened, for the command line.
enum LoadError: Error, UserMessageConvertible {
    case asset(AssetError)
    case opening(OpeningError)

    var userMessage: String {
        switch self {
        case .asset(let error): error.userMessage
        case .opening(let error): error.userMessage
        }
    }
}

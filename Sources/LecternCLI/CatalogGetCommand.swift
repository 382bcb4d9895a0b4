import ArgumentParser
import Bookshelf
import FoundationEssentials
import LCP
import OPDS
import Shared
#if canImport(Glibc)
import Glibc
#endif

/// `lectern catalog get URL ENTRY`: downloads (open access) or borrows (LCP) a publication of a
/// feed and imports it into the library.
struct CatalogGetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Download or borrow a publication of a catalog feed and add it to the library.",
        discussion: """
            ENTRY is the number `lectern catalog URL` shows, or the publication's identifier or title. \
            An open-access or plain acquisition is downloaded; an LCP license (by its type or indirect \
            type) is fetched and its publication acquired as `lectern acquire` does. Adobe DRM is not \
            supported. The path of the imported file is printed.

            The file is named after the entry's title and never replaces one already there: \
            "Title (2).epub" is taken then. A download that fails, is cancelled, passes --max-size \
            or stalls (less than 1 KiB in \(DownloadLimits.stallVariable) seconds, 30 by default) \
            is removed, as is one the library refuses.

            Exit status: 0 imported, 1 the download or import failed, 2 no such entry or nothing \
            Lectern can get, 130 cancelled.
            """
    )

    @Argument(help: "A saved catalog's name, or the feed's URL or file path.")
    var url: String

    @Argument(help: "The entry: its number, identifier or title.")
    var entry: String

    @Option(name: [.short, .long], help: "The folder to download into. Default: the current folder.", completion: .directory)
    var output: String?

    @Option(help: "A feed of the catalog to find the entry in (an href `--json` shows), instead of its first.")
    var href: String?

    @Option(help: ArgumentHelp("The largest download accepted (500M, 2G…). Default: \(DownloadLimits.maxSizeVariable), else 2G.",
                               valueName: "size"))
    var maxSize: String?

    @Option(help: ArgumentHelp("The LCP passphrase of a borrowed book, stored so it opens without asking.", valueName: "secret"))
    var passphrase: String?

    func run() async throws {
        let source = try CatalogSource.resolve(url)
        let feed = try CatalogLoading.feed(source, href: href)
        let publication = try find(in: feed) ?? findBySearch(source, feed: feed)
        let links = publication.acquisitionLinks
        guard let link = Self.choose(links) else {
            let offered = links.map(CatalogText.describe).joined(separator: "; ")
            if links.contains(where: { $0.acquisitionTypes.contains(CatalogFormat.adobe) }) {
                Output.error("\(publication.metadata.title): this book is offered only with Adobe DRM, which Lectern does not support"
                    + (offered.isEmpty ? "" : " (offered: \(offered))"))
            } else {
                Output.error("\(publication.metadata.title): nothing Lectern can get"
                    + (offered.isEmpty ? "" : " (offered: \(offered))"))
            }
            throw ExitStatus.cannotOpen
        }
        let directory = output ?? FileManager.default.currentDirectoryPath
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            Output.error("\(directory): cannot create the folder")
            throw ExitStatus.cannotOpen
        }
        let limits = try limits()
        Interruption.install()
        if link.acquisitionTypes.contains(CatalogFormat.lcpLicense) {
            let path = try await borrow(link, into: directory, client: source.client, limits: limits)
            try await importIntoLibrary(path)
            Output.line(path)
            return
        }
        let path = try download(link, into: directory, title: publication.metadata.title, client: source.client, limits: limits)
        do { try await importIntoLibrary(path) } catch {
            // The file is this download's own (created exclusively): nothing of the person's.
            unlink(path)
            Output.error("\(path): removed, as it could not be added to the library")
            throw error
        }
        Output.line(path)
    }

    static func choose(_ links: [OPDSLink]) -> OPDSLink? { CatalogAcquisition.choose(links) }

    /// The entry of `feed` by number, identifier or title (case ignored); nil when none is.
    private func find(in feed: OPDSFeed) throws -> OPDSPublication? {
        let entries = CatalogEntry.all(in: feed)
        if let number = Int(entry), entries.indices.contains(number - 1) {
            if case .publication(let publication) = entries[number - 1] { return publication }
            Output.error("\(url): entry \(number) is a link to another feed, not a publication")
            throw ExitStatus.cannotOpen
        }
        for case .publication(let publication) in entries
        where publication.metadata.identifier == entry
            || publication.metadata.title.lowercased() == entry.lowercased() {
            return publication
        }
        return nil
    }

    /// A title that is not in the feed shown (most of a catalog is further down): looked for
    /// through the catalog's search, where the catalog has one.
    private func findBySearch(_ source: CatalogSource, feed: OPDSFeed) throws -> OPDSPublication {
        let notFound = "\(url): no entry \(entry) in this feed"
        guard Int(entry) == nil, feed.searchLink != nil else {
            Output.error(notFound + " (`lectern catalog browse \(url)` numbers its entries; --href picks another feed)")
            throw ExitStatus.cannotOpen
        }
        let results = try CatalogLoading.feed(source, href: href, search: entry)
        if let found = try find(in: results) { return found }
        Output.error(notFound + ", nor among the catalog's search results for it (`lectern catalog search \(url) WORDS` "
            + "shows them; `get \(url) N --href SEARCH-URL` takes one)")
        throw ExitStatus.cannotOpen
    }

    /// The download's limits: `--max-size`, else the environment's, else the defaults.
    private func limits() throws -> DownloadLimits {
        var limits: DownloadLimits
        switch DownloadLimits.fromEnvironment(ProcessInfo.processInfo.environment) {
        case .success(let read): limits = read
        case .failure(let error):
            Output.error(error.description)
            throw ExitStatus.cannotOpen
        }
        if let maxSize {
            guard let bytes = DownloadLimits.size(maxSize) else {
                Output.error("--max-size \(maxSize): give a size such as 500M or 2G")
                throw ExitStatus.cannotOpen
            }
            limits.maxBytes = bytes
        }
        return limits
    }

    private func download(_ link: OPDSLink, into directory: String, title: String, client: any HTTPClient,
                          limits: DownloadLimits) throws -> String {
        let name = CatalogAcquisition.fileName(title: title, href: link.href, type: link.type)
        let progress = ProgressBar()
        let result = CatalogDownload.download(
            link.href, into: directory, name: name, client: client, limits: limits,
            onProgress: { received, expected in
                if let expected, expected > 0 {
                    progress.show(.percent(min(1, Double(received) / Double(expected)), received: received, total: expected))
                } else {
                    progress.show(.indefinite(received: received))
                }
            },
            isCancelled: { Interruption.happened })
        progress.finish()
        switch result {
        case .success(let path):
            return path
        case .failure(.cancelled):
            Output.error("\(link.href): cancelled")
            throw ExitCode(130)
        case .failure(.notHTTP):
            Output.error("\(link.href): \(CatalogDownload.Failure.notHTTP)")
            throw ExitStatus.cannotOpen
        case .failure(let failure):
            Output.error("\(link.href): \(failure)")
            throw ExitStatus.someFailed
        }
    }

    private func borrow(_ link: OPDSLink, into directory: String, client: any HTTPClient, limits: DownloadLimits) async throws -> String {
        let license: Data, hashedPassphrase: String?
        do { (license, hashedPassphrase) = try await CatalogBorrow.license(from: link, client: client) } catch {
            Output.error(error.description)
            throw ExitStatus.someFailed
        }
        let signIn = (client as? CatalogSession)?.signIn
        if let problem = CatalogPassphrase.store(hashedPassphrase ?? signIn?.lcpHashedPassphrase,
                                                 typed: passphrase, license: license) {
            Output.error(problem)
        }
        let progress = ProgressBar()
        // The publication's download is LCP's own: held to the limits through its callbacks
        // (stopped, it leaves nothing behind).
        let limit = DownloadGuard(limits)
        let result = await LCPSetup.withService { service in
            await service.acquirePublication(from: license, in: directory, onProgress: { step in
                switch step {
                case .percent(_, let received, let total): limit.observe(received: received, expected: total)
                case .indefinite(let received): limit.observe(received: received, expected: nil)
                }
                progress.show(step)
            }, isCancelled: { limit.mustStop() || Interruption.happened })
        }
        progress.finish()
        if case .failure = result, let reason = limit.reason {
            Output.error("\(link.href): \(reason)")
            throw ExitStatus.someFailed
        }
        switch result {
        case .success(let acquired): return acquired.path
        case .failure(.cancelled):
            Output.error("\(link.href): \(LCPError.cancelled.userMessage)")
            throw ExitCode(130)
        case .failure(let error):
            Output.error("\(link.href): \(error.userMessage)")
            throw error.isIntegrityFailure ? ExitStatus.cannotOpen : ExitStatus.someFailed
        }
    }

    private func importIntoLibrary(_ path: String) async throws {
        let (store, problem) = UIComposition.store()
        guard let store else {
            Output.error(problem ?? "the library cannot be opened")
            throw ExitStatus.cannotOpen
        }
        let outcomes = await LibraryImporter(store: store, open: UIComposition.open).importPaths([path])
        for outcome in outcomes where outcome.entry == nil {
            Output.error("\(outcome.path): \(outcome.error ?? "not added")")
            throw ExitStatus.someFailed
        }
    }
}

import ArgumentParser
import FoundationEssentials
import OPDS
import Shared

/// `lectern catalog`: OPDS 1.2 and 2.0 catalogs from the command line.
struct CatalogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Browse OPDS catalogs and get their publications.",
        subcommands: [CatalogBrowseCommand.self, CatalogGetCommand.self],
        defaultSubcommand: CatalogBrowseCommand.self
    )
}

/// `lectern catalog [browse] URL [--json] [--search WORDS] [--page next|previous|first|last]`.
struct CatalogBrowseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Show a catalog feed: its navigation entries and publications, numbered.",
        discussion: "URL is an http(s) URL or a file. Exit status: 0 shown, 1 the feed cannot be had, 2 it is not a catalog."
    )

    @Argument(help: "The feed's URL or file path.")
    var url: String

    @Option(help: "Search the catalog for these words (through its search link) and show the results.")
    var search: String?

    @Option(help: "Show the feed's next, previous, first or last page instead.")
    var page: OPDSPageDirection?

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() async throws {
        let feed = try CatalogLoading.feed(url: url, search: search, page: page)
        if json {
            Output.json(CatalogJSON.feed(feed))
        } else {
            CatalogText.show(feed)
        }
    }
}

extension OPDSPageDirection: ExpressibleByArgument {}

/// Reaching the feed a `catalog` command asks for, with errors told at the edge.
enum CatalogLoading {
    static let reader = CatalogReader(client: CurlHTTPClient())

    static func feed(url: String, search: String? = nil, page: OPDSPageDirection? = nil) throws -> OPDSFeed {
        var feed = try load(url)
        if let search {
            let searchURL: String?
            do { searchURL = try reader.searchURL(in: feed, terms: search) } catch {
                Output.error(error.description)
                throw ExitStatus.someFailed
            }
            guard let searchURL else {
                Output.error("\(url): this catalog offers no search")
                throw ExitStatus.someFailed
            }
            feed = try load(searchURL)
        }
        if let page {
            guard let link = feed.page(page) else {
                Output.error("\(url): the feed has no \(page.rawValue) page")
                throw ExitStatus.someFailed
            }
            feed = try load(link.href)
        }
        return feed
    }

    private static func load(_ url: String) throws -> OPDSFeed {
        do { return try reader.feed(at: url) } catch {
            Output.error(error.description)
            if case .document = error { throw ExitStatus.cannotOpen }
            throw ExitStatus.someFailed
        }
    }
}

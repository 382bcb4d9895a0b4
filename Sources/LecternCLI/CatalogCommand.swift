import ArgumentParser
import FoundationEssentials
import OPDS
import Shared

/// `lectern catalog`: OPDS 1.2 and 2.0 catalogs from the command line.
struct CatalogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Browse OPDS catalogs and get their publications.",
        subcommands: [CatalogBrowseCommand.self, CatalogSearchCommand.self, CatalogGetCommand.self, CatalogAddCommand.self,
                      CatalogListCommand.self, CatalogRemoveCommand.self, CatalogSignOutCommand.self],
        defaultSubcommand: CatalogBrowseCommand.self
    )
}

/// `lectern catalog [browse] NAME|URL [--href H] [--json] [--search WORDS] [--page next|previous|first|last]`.
struct CatalogBrowseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Show a catalog feed: its navigation entries and publications, numbered.",
        discussion: """
            NAME is a catalog saved with `lectern catalog add`; URL an http(s) URL or a file. \
            Exit status: 0 shown, 1 the feed cannot be had, 2 it is not a catalog.
            """
    )

    @Argument(help: "A saved catalog's name, or the feed's URL or file path.")
    var url: String

    @Argument(help: "The number of a navigation entry (→) the listing shows: its feed is shown.")
    var entry: Int?

    @Option(help: "Show this feed of the catalog instead of its first (an href `--json` shows, absolute or relative).")
    var href: String?

    @Flag(help: "Show the copy kept from the last time, without asking the server.")
    var offline = false

    @Option(help: "Search the catalog for these words (through its search link) and show the results.")
    var search: String?

    @Option(help: "Show the feed's next, previous, first or last page instead.")
    var page: OPDSPageDirection?

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() async throws {
        let source = try CatalogSource.resolve(url)
        var feed = try CatalogLoading.feed(source, href: href, search: search, page: page, offline: offline)
        if let entry { feed = try follow(entry, of: feed, source) }
        if json {
            Output.json(CatalogJSON.feed(feed))
        } else {
            CatalogText.show(feed)
        }
    }

    /// The feed of navigation entry `number` of `feed`, as numbered in its listing.
    private func follow(_ number: Int, of feed: OPDSFeed, _ source: CatalogSource) throws -> OPDSFeed {
        let entries = CatalogEntry.all(in: feed)
        guard entries.indices.contains(number - 1) else {
            Output.error("\(url): no entry \(number) (the feed has \(entries.count))")
            throw ExitStatus.someFailed
        }
        guard case .navigation(let link) = entries[number - 1] else {
            Output.error("\(url): entry \(number) is a publication: `lectern catalog get \(url) \(number)` gets it")
            throw ExitStatus.someFailed
        }
        return try CatalogLoading.feed(source, href: Href.resolve(link.href, against: feed.url), offline: offline)
    }
}

extension OPDSPageDirection: ExpressibleByArgument {}

/// Reaching the feed a `catalog` command asks for, with errors told at the edge.
enum CatalogLoading {
    static func feed(_ source: CatalogSource, href: String? = nil, search: String? = nil,
                     page: OPDSPageDirection? = nil, offline: Bool = false) throws -> OPDSFeed {
        let reader = source.reader(offline: offline)
        let url = href.map { Href.resolve($0, against: source.url) } ?? source.url
        var feed = try load(url, reader)
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
            feed = try load(searchURL, reader)
        }
        if let page {
            guard let link = feed.page(page) else {
                Output.error("\(url): the feed has no \(page.rawValue) page")
                throw ExitStatus.someFailed
            }
            feed = try load(link.href, reader)
        }
        return feed
    }

    private static func load(_ url: String, _ reader: CatalogReader) throws -> OPDSFeed {
        do { return try reader.feed(at: url) } catch {
            Output.error(error.description)
            if case .document = error { throw ExitStatus.cannotOpen }
            throw ExitStatus.someFailed
        }
    }
}

/// `lectern catalog search NAME|URL WORDS [--json]`.
struct CatalogSearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search a catalog (through its search link) and show the results, numbered.",
        discussion: "Exit status: 0 shown, 1 the search cannot be made, 2 the answer is not a catalog."
    )

    @Argument(help: "A saved catalog's name, or the feed's URL or file path.")
    var catalog: String

    @Argument(help: "The words to search for.")
    var query: String

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Flag(help: "Show the copy of the results kept from the last same search, without asking the server.")
    var offline = false

    func run() async throws {
        let feed = try CatalogLoading.feed(try CatalogSource.resolve(catalog), search: query, offline: offline)
        if json {
            Output.json(CatalogJSON.feed(feed))
        } else {
            CatalogText.show(feed)
        }
    }
}

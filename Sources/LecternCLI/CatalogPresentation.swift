import OPDS
import Shared

/// A feed as lines of text (every string goes through ``Output``, which sanitises it).
enum CatalogText {
    static func show(_ feed: OPDSFeed) {
        Output.line(feed.metadata.title.isEmpty ? "(untitled catalog)" : feed.metadata.title)
        if let total = feed.metadata.numberOfItems { Output.line("\(total) items") }
        for (index, entry) in CatalogEntry.all(in: feed).enumerated() {
            switch entry {
            case .navigation(let link):
                let count = link.properties.numberOfItems.map { " (\($0))" } ?? ""
                Output.line("\(index + 1). \(link.title ?? link.href)\(count) →")
            case .publication(let publication):
                let authors = publication.metadata.authors.isEmpty ? "" : " — " + publication.metadata.authors.joined(separator: ", ")
                Output.line("\(index + 1). \(publication.metadata.title)\(authors)")
                for link in publication.acquisitionLinks { Output.line("     \(describe(link))") }
            }
        }
        for group in feed.facets {
            let facets = group.links.map { ($0.properties.isActiveFacet ? "*" : "") + ($0.title ?? $0.href) }
            Output.line("facets \(group.title): " + facets.joined(separator: " | "))
        }
        let pages = OPDSPageDirection.allCases.filter { feed.page($0) != nil }.map(\.rawValue)
        if !pages.isEmpty { Output.line("pages: " + pages.joined(separator: ", ")) }
        if feed.searchLink != nil { Output.line("search: --search WORDS") }
    }

    static func describe(_ link: OPDSLink) -> String { CatalogFormat.describe(link) }
}

/// A feed as JSON, for scripts.
enum CatalogJSON {
    static func feed(_ feed: OPDSFeed) -> JSONValue {
        var object = JSONObject()
        object["title"] = .string(feed.metadata.title)
        object["url"] = .string(feed.url)
        object["version"] = .string(feed.version.rawValue)
        object.set("numberOfItems", feed.metadata.numberOfItems.map { .int($0) })
        object["entries"] = .array(CatalogEntry.all(in: feed).enumerated().map { index, entry in
            switch entry {
            case .navigation(let link):
                var item = JSONObject()
                item["number"] = .int(index + 1)
                item["kind"] = .string("navigation")
                item["title"] = .string(link.title ?? "")
                item["href"] = .string(link.href)
                return .object(item)
            case .publication(let publication):
                var item = JSONObject()
                item["number"] = .int(index + 1)
                item["kind"] = .string("publication")
                item.set("id", publication.metadata.identifier.map { .string($0) })
                item["title"] = .string(publication.metadata.title)
                item["authors"] = .array(publication.metadata.authors.map { .string($0) })
                item.set("summary", publication.metadata.summary.map { .string($0) })
                item["acquisitions"] = .array(publication.acquisitionLinks.map(self.link))
                return .object(item)
            }
        })
        object["facets"] = .array(feed.facets.map { group in
            .object(JSONObject(["title": .string(group.title), "links": .array(group.links.map(self.link))]))
        })
        var pages = JSONObject()
        for direction in OPDSPageDirection.allCases {
            pages.set(direction.rawValue, feed.page(direction).map { .string($0.href) })
        }
        object["pages"] = .object(pages)
        object.set("search", feed.searchLink.map { .string($0.href) })
        return .object(object)
    }

    static func link(_ link: OPDSLink) -> JSONValue {
        var object = JSONObject()
        object["href"] = .string(link.href)
        object["rels"] = .array(link.rels.map { .string($0) })
        object["types"] = .array(link.acquisitionTypes.map { .string($0) })
        object.set("title", link.title.map { .string($0) })
        if !link.properties.prices.isEmpty {
            object["prices"] = .array(link.properties.prices.map {
                .object(JSONObject(["value": .double($0.value), "currency": .string($0.currency)]))
            })
        }
        if let availability = link.properties.availability {
            object["availability"] = .string(availability.state)
        }
        return .object(object)
    }
}

import FoundationEssentials
import Shared
import Synchronization

/// Serves documents a parser writes in memory (the XHTML of a plain-text chapter, the pictures
/// decoded from an FB2) in front of the fetcher of the file itself. Nothing generated is ever
/// written to disk.
///
/// ``links`` lists the generated resources and the ones the parser names (pictures beside a
/// Markdown file), never the whole folder the base fetcher can reach.
final class GeneratedFetcher: Fetcher {
    /// One generated resource: its link and what makes its bytes (run once, on first read).
    struct Entry: Sendable {
        var link: Link
        var bytes: @Sendable () -> ResourceResult<Data>
    }

    private let entries: [String: Entry]
    private let order: [Link]
    private let base: any Fetcher

    /// - Parameters:
    ///   - entries: the generated resources, in their order.
    ///   - listed: links of `base` to list too.
    init(entries: [Entry], listing listed: [Link] = [], base: any Fetcher) {
        var byHref: [String: Entry] = [:]
        for entry in entries { byHref[entry.link.href] = entry }
        self.entries = byHref
        order = entries.map(\.link) + listed.filter { byHref[$0.href] == nil }
        self.base = base
    }

    var links: [Link] { order }

    func get(_ link: Link, parameters: [String: String]) -> any Resource {
        let href = Href.removingFragment(link.href)
        if let entry = entries[href] {
            var served = link
            served.href = href
            served.mediaType = entry.link.mediaType
            return BytesResource(link: served, bytes: entry.bytes)
        }
        return base.get(link, parameters: parameters)
    }

    func close() { base.close() }
}

/// Reads a whole resource, refusing one larger than `limit` before reading it.
enum BoundedRead {
    static func data(_ resource: any Resource, href: String, limit: UInt64, what: String) throws(PublicationParseError) -> Data {
        defer { resource.close() }
        switch resource.length {
        case .success(let length) where length > limit:
            throw .invalid(href: href, reason: "\(what) is \(length) bytes long, more than the \(limit >> 20) MB Lectern reads")
        case .failure(.notFound):
            throw .missingResource(href: href, what: what)
        default:
            break
        }
        switch resource.read(range: nil) {
        case .success(let data):
            guard UInt64(data.count) <= limit else {
                throw .invalid(href: href, reason: "\(what) is larger than the \(limit >> 20) MB Lectern reads")
            }
            return data
        case .failure(.notFound): throw .missingResource(href: href, what: what)
        case .failure(let error): throw .unreadableResource(href: href, error)
        }
    }
}

import FoundationEssentials
import LibZip
import Shared

/// Opens the package a bare license points to (`links[rel=publication]`) on its web server,
/// without downloading it: a `HEAD` for the final URL and the length, then `Range` requests —
/// the end of the file first (ZIP's central directory), then only the entries that are read,
/// through a block cache. A server that ignores ranges sends the whole file to the first
/// request: it is then kept in memory, up to ``maxInMemorySize``.
struct RemotePublication {
    /// What was opened.
    struct Opened: Sendable {
        let archive: ZipArchive
        /// The URL that answered, after redirects.
        let location: String
        let format: Format
        /// Whether the package is read with ranges (false: downloaded into memory).
        let isStreamed: Bool
    }

    let httpClient: any HTTPClient
    /// Seconds allowed for each request.
    let timeout: Double
    /// The largest package downloaded whole when the server does not honour ranges.
    let maxInMemorySize: Int
    /// The size of the first ranged read at the end of the file (the central directory of
    /// most publications fits in it).
    let tailLength: UInt64 = 64 << 10
    let sniffer: FormatSniffer

    func open(_ link: LicenseLink) throws(LCPError) -> Opened {
        let url = link.href
        guard Href.isHTTP(url) else { throw .publicationUnavailable("its address is not an HTTP URL: \(url)") }

        // HEAD: where the file really is, how long it is, and whether ranges are refused.
        var location = url
        var length: UInt64?
        var refusesRanges = false
        if case .success(let head) = httpClient.send(HTTPRequest(url: url, method: "HEAD", timeout: timeout)) {
            if head.isSuccess {
                location = head.url.isEmpty ? url : head.url
                length = head.contentLength
                refusesRanges = head.headers["accept-ranges"]?.lowercased() == "none"
            } else if ![405, 501].contains(head.statusCode) {
                throw .publicationUnavailable("the server answered HTTP \(head.statusCode) for \(url)")
            }
        }

        let resource: any Resource
        let isStreamed: Bool
        switch refusesRanges ? .ignoresRanges : try probeTail(location, length: length) {
        case .ranged(let ranged):
            resource = ranged
            isStreamed = true
        case .whole(let data):
            resource = BytesResource(link: Link(href: location), bytes: data)
            isStreamed = false
        case .ignoresRanges:
            resource = BytesResource(link: Link(href: location), bytes: try downloadWhole(location))
            isStreamed = false
        }

        let archive: ZipArchive
        do {
            archive = try ZipArchive(reader: ResourceZipReader(resource: resource))
        } catch {
            throw .publicationUnavailable("the publication at \(location) is not a readable ZIP package (\(error))")
        }
        var hints = FormatHints(path: location, mediaType: link.mediaType)
        hints = hints.merging(FormatHints(path: url))
        var format = sniffer.sniff(archive: archive, hints: hints)
        guard format.isPublication, format.isZIPPackage else {
            archive.close()
            throw .publicationUnavailable("the file at \(location) is not a publication Lectern can open (\(format))")
        }
        // It is protected by the license that points to it, whatever its entries say.
        format.isLCPProtected = true
        return Opened(archive: archive, location: location, format: format, isStreamed: isStreamed)
    }

    /// What the first ranged request showed.
    private enum Probe {
        /// The server honours ranges: the file behind a block cache, seeded with its end.
        case ranged(any Resource)
        /// The server sent the whole file instead.
        case whole(Data)
        /// The server said it does not serve ranges (`Accept-Ranges: none`).
        case ignoresRanges
    }

    /// Reads the end of the file with a suffix range.
    private func probeTail(_ url: String, length: UInt64?) throws(LCPError) -> Probe {
        let request = HTTPRequest(url: url, headers: ["Range": "bytes=-\(tailLength)"], timeout: timeout,
                                  maxBodySize: maxInMemorySize)
        let response: HTTPResponse
        switch httpClient.send(request) {
        case .success(let received): response = received
        case .failure(.tooLarge): throw Self.tooLarge(maxInMemorySize)
        case .failure(let error): throw .publicationUnavailable(error.description)
        }
        switch response.statusCode {
        case 206:
            guard let total = Self.totalLength(fromContentRange: response.headers["content-range"]) ?? length,
                  UInt64(response.body.count) <= total else {
                throw .publicationUnavailable("the server's partial answer does not say the file's length")
            }
            let remote = HTTPFetcher(client: httpClient, timeout: timeout).get(Link(href: url))
            let cached = BlockCachingResource(remote, length: total)
            cached.seed(offset: total - UInt64(response.body.count), data: response.body, totalLength: total)
            return .ranged(cached)
        case 200:
            // The whole file came back: no need to ask again.
            return .whole(response.body)
        default:
            throw .publicationUnavailable("the server answered HTTP \(response.statusCode) for \(url)")
        }
    }

    private func downloadWhole(_ url: String) throws(LCPError) -> Data {
        let request = HTTPRequest(url: url, timeout: max(timeout, 60), maxBodySize: maxInMemorySize)
        switch httpClient.send(request) {
        case .success(let response) where response.isSuccess:
            return response.body
        case .success(let response):
            throw .publicationUnavailable("the server answered HTTP \(response.statusCode) for \(url)")
        case .failure(.tooLarge):
            throw Self.tooLarge(maxInMemorySize)
        case .failure(let error):
            throw .publicationUnavailable(error.description)
        }
    }

    /// The total in `Content-Range: bytes a-b/total`; nil when it is `*` or malformed.
    static func totalLength(fromContentRange header: String?) -> UInt64? {
        guard let header, let slash = header.lastIndex(of: "/") else { return nil }
        return UInt64(header[header.index(after: slash)...].trimmed)
    }

    static func tooLarge(_ limit: Int) -> LCPError {
        .publicationUnavailable("the server cannot send parts of the publication and it is larger than \(limit >> 20) MB; download it with `lectern acquire`")
    }
}

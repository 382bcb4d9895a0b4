import FoundationEssentials

extension AssetRetriever {
    /// Opens the resource at `url`. `http(s)` URLs are sniffed from their `Content-Type` and
    /// the content of a small ranged GET; `file:` URLs and plain paths go to
    /// ``retrieve(path:)``.
    ///
    /// Manifests, PDF documents and LCP licenses are read in place through an
    /// ``HTTPFetcher``; a package (EPUB, CBZ…) on a server is reported as
    /// ``AssetError/unsupportedFormat(_:detected:)`` with its format, since Lectern reads ZIP
    /// archives only from local files. Blocks on the network: never call it from the
    /// interface thread.
    public func retrieve(url: String) throws(AssetError) -> Asset {
        switch Href.scheme(of: url)?.lowercased() {
        case nil:
            return try retrieve(path: url)
        case "file":
            return try retrieve(path: Self.path(ofFileURL: url))
        case "http", "https":
            return try retrieveHTTP(url)
        case let scheme?:
            throw .unreadable(url, reason: "Lectern does not open \(scheme): URLs")
        }
    }

    private func retrieveHTTP(_ url: String) throws(AssetError) -> Asset {
        var location = url
        var declared: MediaType?
        var declaredLength: UInt64?

        // HEAD is a courtesy: servers that refuse it (405, 501) are asked with GET only.
        let head = try send(HTTPRequest(url: url, method: "HEAD", timeout: timeout), url: url)
        if head.isSuccess {
            location = head.url.isEmpty ? url : head.url
            declared = head.mediaType
            declaredLength = head.contentLength
        } else if ![405, 501].contains(head.statusCode) {
            throw Self.statusError(head.statusCode, url: url)
        }

        let declaredHints = FormatHints(path: location, mediaType: declared).merging(FormatHints(path: url))
        let content = try sniffedContent(location, declaredLength: declaredLength, hints: declaredHints)
        location = content.location
        let hints = FormatHints(path: location, mediaType: declared ?? content.mediaType)
            .merging(FormatHints(path: url))

        // Content beats the Content-Type. The hints decide only when the content could not be
        // read (the server ignored the range on a large file), or when a JSON or XML document
        // was too long to read whole and the hints name a document of that kind.
        let format: Format?
        if let bytes = content.bytes {
            let signature = ContentSignature(head: bytes.prefix(sniffer.limits.headLength))
            let isTruncatedDocument = !content.isComplete && (signature == .json || signature == .markup)
            format = sniffer.sniff(bytes: bytes, hints: hints)
                ?? (isTruncatedDocument ? hints.format.flatMap { Self.isDocument($0, like: signature) ? $0 : nil } : nil)
        } else {
            format = hints.format
        }
        guard let format, format.isPublication, !format.isZIPPackage else {
            throw .unsupportedFormat(url, detected: format)
        }
        return Asset(name: Self.fileName(ofURL: location), location: location, format: format,
                     fetcher: HTTPFetcher(client: httpClient, baseURL: location, timeout: timeout))
    }

    /// What was read of a remote resource for sniffing.
    private struct RemoteContent {
        /// The URL that answered, after redirects.
        var location: String
        var mediaType: MediaType?
        /// Nil when the server would not send a bounded part.
        var bytes: Data?
        /// Whether `bytes` is the whole resource.
        var isComplete: Bool
        /// The resource's length, when the server told it.
        var totalLength: UInt64?
    }

    /// The first bytes of the resource, and the whole of it when it is a JSON or XML document
    /// small enough to classify.
    private func sniffedContent(_ url: String, declaredLength: UInt64?, hints: FormatHints) throws(AssetError) -> RemoteContent {
        let limits = sniffer.limits
        let first = try prefix(of: url, length: limits.headLength)
        guard let head = first.bytes else {
            // The server ignored the range. A document may still be small enough to classify;
            // a PDF or a package is not worth downloading to learn what the hints say.
            let hinted = hints.format
            if let hinted, hinted.kind == .pdf || hinted.isZIPPackage { return first }
            return try prefix(of: url, length: limits.maxDocumentLength)
        }
        guard !first.isComplete else { return first }
        let total = first.totalLength ?? declaredLength
        switch ContentSignature(head: head) {
        case .json where total.map({ $0 <= UInt64(limits.maxDocumentLength) }) ?? true, .markup:
            var document = try prefix(of: first.location, length: limits.maxDocumentLength)
            document.mediaType = document.mediaType ?? first.mediaType
            return document
        default:
            return first
        }
    }

    /// GETs the first `length` bytes of `url`.
    private func prefix(of url: String, length: Int) throws(AssetError) -> RemoteContent {
        let request = HTTPRequest(url: url, headers: ["Range": "bytes=0-\(length - 1)"], timeout: timeout,
                                  maxBodySize: length)
        let response: HTTPResponse
        switch httpClient.send(request) {
        case .success(let received):
            response = received
        case .failure(.tooLarge):
            // The server ignored the range and sends a large file.
            return RemoteContent(location: url, bytes: nil, isComplete: false)
        case .failure(let error):
            throw .unreadable(url, reason: error.description)
        }
        let location = response.url.isEmpty ? url : response.url
        switch response.statusCode {
        case 206:
            let total = Self.totalLength(fromContentRange: response.headers["content-range"])
            let isComplete = total.map { UInt64(response.body.count) >= $0 } ?? (response.body.count < length)
            return RemoteContent(location: location, mediaType: response.mediaType, bytes: response.body,
                                 isComplete: isComplete, totalLength: total)
        case 200..<300:
            return RemoteContent(location: location, mediaType: response.mediaType, bytes: response.body,
                                 isComplete: true, totalLength: UInt64(response.body.count))
        case 416:
            return RemoteContent(location: location, mediaType: response.mediaType, bytes: Data(),
                                 isComplete: true, totalLength: 0)
        default:
            throw Self.statusError(response.statusCode, url: url)
        }
    }

    private func send(_ request: HTTPRequest, url: String) throws(AssetError) -> HTTPResponse {
        switch httpClient.send(request) {
        case .success(let response): return response
        case .failure(let error): throw .unreadable(url, reason: error.description)
        }
    }

    /// Whether `format` is a JSON document when `signature` is JSON, an XML or HTML one when
    /// it is markup.
    static func isDocument(_ format: Format, like signature: ContentSignature) -> Bool {
        let mediaType = format.mediaType
        if signature == .json { return mediaType.isJSON }
        return mediaType.isHTML || mediaType.structuredSyntaxSuffix == "+xml" || mediaType.subtype == "xml"
    }

    static func statusError(_ status: Int, url: String) -> AssetError {
        switch status {
        case 404, 410: .notFound(url)
        case 401, 403: .unreadable(url, reason: "access denied (HTTP \(status))")
        default: .unreadable(url, reason: "the server answered HTTP \(status)")
        }
    }

    /// The total in `Content-Range: bytes a-b/total`; nil when it is `*` or malformed.
    static func totalLength(fromContentRange header: String?) -> UInt64? {
        guard let header, let slash = header.lastIndex(of: "/") else { return nil }
        return UInt64(header[header.index(after: slash)...].trimmed)
    }

    /// The last path segment of a URL, percent-decoded; the host when the path is empty.
    static func fileName(ofURL url: String) -> String {
        var rest = Substring(Href.removingFragment(url))
        if let mark = rest.firstIndex(of: "?") { rest = rest[..<mark] }
        if let colon = rest.firstIndex(of: ":") { rest = rest[rest.index(after: colon)...] }
        while rest.hasPrefix("/") { rest = rest.dropFirst() }
        let segments = rest.split(separator: "/")
        let last = segments.count > 1 ? segments.last! : segments.first ?? Substring(url)
        return Href.percentDecoded(String(last)) ?? String(last)
    }

    /// The path of a `file:` URL (`file:///a/b%20c.epub` → `/a/b c.epub`).
    static func path(ofFileURL url: String) -> String {
        var rest = Substring(url.dropFirst("file:".count))
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            // Skip the authority (empty or `localhost`).
            rest = rest.firstIndex(of: "/").map { rest[$0...] } ?? ""
        }
        let path = Href.removingFragment(String(rest))
        return Href.percentDecoded(path) ?? path
    }
}

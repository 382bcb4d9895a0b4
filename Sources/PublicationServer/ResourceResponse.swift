import FoundationEssentials
import Hummingbird
import Shared

/// The response for one resource read through the publication's Fetcher (decrypted,
/// deobfuscated, inflated): `GET` and `HEAD`, single and multiple ranges (206,
/// `multipart/byteranges`, 416), `ETag` and `Last-Modified` with `If-None-Match`,
/// `If-Modified-Since` and `If-Range` (an entity tag or that date). The body is
/// streamed by chunks read from the resource, so a large resource never sits whole in memory.
struct ResourceResponse {
    /// The bytes read from the resource and written at a time.
    static let chunkSize: UInt64 = 256 * 1024

    let resource: any Resource
    let request: Request
    /// When the publication last changed (whole seconds).
    let lastModified: Date
    let limit: ConcurrencyLimit

    /// The response. The resource's length (which may decrypt or inflate it whole) and its
    /// reads run on a Dispatch thread (``Blocking``), never on the server's event loops or the
    /// cooperative pool.
    func make() async -> Response {
        let resource = resource
        let length: UInt64
        switch await resource.lengthOffPool {
        case .success(let value): length = value
        case .failure(let error):
            resource.close()
            return ServerResponse.error(error)
        }
        let contentType = resource.link.mediaType?.string ?? "application/octet-stream"
        let etag = Self.entityTag(href: resource.link.href, length: length)
        var headers = ServerResponse.commonHeaders
        headers[.eTag] = etag
        let date = HTTPDate.format(lastModified)
        headers[.lastModified] = date
        headers[.acceptRanges] = "bytes"
        headers[.cacheControl] = "private, no-cache"

        if notModified(etag: etag) {
            resource.close()
            return Response(status: .notModified, headers: headers)
        }
        var ranges = ByteRanges(header: request.headers[.range], length: length)
        // A range of a representation that changed since the client's copy makes no sense:
        // send it whole. The condition is our entity tag, or exactly our date.
        if let condition = request.headers[.ifRange]?.trimmingSpaces, condition != etag, condition != date { ranges = .whole }

        switch ranges {
        case .whole:
            headers[.contentType] = contentType
            return response(.ok, headers: headers, length: length, parts: [Part(prefix: [], range: 0..<length)])
        case .partial(let list) where list.count == 1:
            let range = list[0]
            headers[.contentType] = contentType
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(length)"
            return response(.partialContent, headers: headers, length: UInt64(range.count), parts: [Part(prefix: [], range: range)])
        case .partial(let list):
            let boundary = Self.boundary()
            headers[.contentType] = "multipart/byteranges; boundary=\(boundary)"
            var parts: [Part] = []
            for (index, range) in list.enumerated() {
                let head = (index == 0 ? "" : "\r\n") + "--\(boundary)\r\nContent-Type: \(contentType)\r\n"
                    + "Content-Range: bytes \(range.lowerBound)-\(range.upperBound - 1)/\(length)\r\n\r\n"
                parts.append(Part(prefix: Array(head.utf8), range: range))
            }
            parts.append(Part(prefix: Array("\r\n--\(boundary)--\r\n".utf8), range: 0..<0))
            let total = parts.reduce(UInt64(0)) { $0 + UInt64($1.prefix.count) + UInt64($1.range.count) }
            return response(.partialContent, headers: headers, length: total, parts: parts)
        case .unsatisfiable:
            resource.close()
            headers[.contentRange] = "bytes */\(length)"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        }
    }

    /// RFC 9110 §13.2.2: `If-None-Match` when present, else `If-Modified-Since` (a date that
    /// cannot be read, or one in the future, is ignored).
    private func notModified(etag: String) -> Bool {
        if let tags = request.headers[.ifNoneMatch] { return Self.matches(tags, etag) }
        guard let since = request.headers[.ifModifiedSince].flatMap({ HTTPDate.parse($0.trimmingSpaces) }),
              since <= Date() else { return false }
        return lastModified <= since
    }

    /// A piece of the body: bytes of our own (a multipart header) then a range of the resource.
    struct Part: Sendable {
        let prefix: [UInt8]
        let range: Range<UInt64>
    }

    private func response(_ status: HTTPResponse.Status, headers: HTTPFields, length: UInt64, parts: [Part]) -> Response {
        var headers = headers
        headers[.contentLength] = String(length)
        if request.method == .head {
            resource.close()
            return Response(status: status, headers: headers)
        }
        let resource = resource
        let limit = limit
        return Response(status: status, headers: headers, body: ResponseBody(contentLength: Int(length)) { writer in
            defer { resource.close() }
            try await limit.run {
                for part in parts {
                    if !part.prefix.isEmpty { try await writer.write(ByteBuffer(bytes: part.prefix)) }
                    var offset = part.range.lowerBound
                    while offset < part.range.upperBound {
                        let end = min(offset + Self.chunkSize, part.range.upperBound)
                        let data: Data
                        let range = offset..<end
                        switch await resource.readOffPool(range: range) {
                        case .success(let read): data = read
                        case .failure(let error): throw error
                        }
                        // The length was a hint that proved wrong: better a cut connection
                        // than a body that silently differs from its headers.
                        guard data.count == Int(end - offset) else { throw ResourceError.other(ShortRead()) }
                        try await writer.write(ByteBuffer(bytes: data))
                        offset = end
                    }
                }
            }
            try await writer.finish(nil)
        })
    }

    /// A strong validator for the resource: its href and length, hashed (FNV-1a). The URLs
    /// change with every run (the secret), so it only has to hold within one run, where the
    /// opened publication does not change.
    static func entityTag(href: String, length: UInt64) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in href.utf8 + Array("#\(length)".utf8) {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return "\"" + String(hash, radix: 16) + "-" + String(length, radix: 16) + "\""
    }

    /// Whether an `If-None-Match` list names `etag` (weak comparison, `*` matches all).
    static func matches(_ list: String, _ etag: String) -> Bool {
        list.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingSpaces
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            return tag == etag
        }
    }

    /// A random multipart boundary (it cannot occur by design in the parts' bytes we frame).
    static func boundary() -> String {
        var generator = SystemRandomNumberGenerator()
        return "lectern-" + String(generator.next() as UInt64, radix: 36) + String(generator.next() as UInt64, radix: 36)
    }

    struct ShortRead: Error, CustomStringConvertible {
        var description: String { "the resource is shorter than its declared length" }
    }
}


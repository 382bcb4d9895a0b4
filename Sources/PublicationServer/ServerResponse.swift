import HTTPTypes
import Hummingbird
import Shared

/// The headers every response carries and the small responses of the server.
enum ServerResponse {
    /// No CORS headers anywhere (other origins cannot read answers); no MIME sniffing; no
    /// referrer leaking the secret to other sites; no framing by other origins; the book
    /// policy (``ContentPolicy/book``: sandboxed, no script, nothing sent elsewhere), which
    /// only the reader page replaces with its own.
    static var commonHeaders: HTTPFields {
        var headers = HTTPFields()
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        headers[HTTPField.Name("X-Frame-Options")!] = "SAMEORIGIN"
        headers[HTTPField.Name("Cross-Origin-Resource-Policy")!] = "same-origin"
        headers[.contentSecurityPolicy] = ContentPolicy.book
        return headers
    }

    /// 404 with no detail: the same answer for a wrong secret, an unknown publication, a
    /// traversal attempt and a missing resource, so that nothing can be probed.
    static var notFound: Response { text(.notFound, "Not Found\n") }

    /// A plain-text response.
    static func text(_ status: HTTPResponse.Status, _ body: String, headers extra: HTTPFields = HTTPFields()) -> Response {
        var headers = commonHeaders
        headers.append(contentsOf: extra)
        headers[.contentType] = "text/plain; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    /// A JSON response (`type` defaults to `application/json`).
    static func json(_ status: HTTPResponse.Status, _ value: JSONValue, type: String = "application/json") -> Response {
        var headers = commonHeaders
        headers[.contentType] = type
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers,
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: JSONWriter().bytes(value))))
    }

    /// An RFC 9457 problem document.
    static func problem(_ status: HTTPResponse.Status, title: String, detail: String, extra: JSONObject = JSONObject()) -> Response {
        var object = JSONObject(["type": .string("about:blank"), "title": .string(title), "status": .int(status.code),
                                 "detail": .string(detail)])
        for member in extra.members { object[member.key] = member.value }
        return json(status, .object(object), type: "application/problem+json")
    }

    /// The response for a resource that could not be read.
    static func error(_ error: ResourceError) -> Response {
        switch error {
        case .notFound: notFound
        case .forbidden: text(.forbidden, "Forbidden\n")
        case .unavailable: text(.serviceUnavailable, "Unavailable\n")
        case .other: text(.internalServerError, "The resource could not be read\n")
        }
    }
}

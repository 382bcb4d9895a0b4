import Hummingbird

/// The page at `/SECRET/pub/ID/`. For now a plain page pointing at the manifest; the browser
/// reader (reading order, table of contents, gated copy) is the next step of issue #13.
enum ReaderPage {
    /// Nothing but this page's own origin may load anything, and no inline script runs.
    static let contentSecurityPolicy = "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; "
        + "form-action 'none'; frame-ancestors 'self'"

    static func response(title: String) -> Response {
        let html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(escaped(title))</title></head>
            <body><h1>\(escaped(title))</h1><p><a href="manifest.json">Manifest</a></p></body></html>

            """
        var headers = ServerResponse.commonHeaders
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// `text` safe inside HTML text and attribute values.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}

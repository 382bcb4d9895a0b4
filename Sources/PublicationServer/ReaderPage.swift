import HTTPTypes
import Hummingbird

/// The browser reader at `/SECRET/pub/ID/`: the reading order with previous and next, the
/// table of contents, the resource in a frame (images, SVG, MathML, fixed layout, audio and
/// video are the browser's job), the position in the URL fragment, a light and a dark theme,
/// and copy and print gated by the content-protection routes. Its script and style sheet are
/// served beside it (``ReaderAssets``) so that the page's policy allows no inline script.
/// The book's documents show in a sandboxed frame on the publication's origin, where they
/// run no script (``ContentPolicy``); this page's script gates copying and printing in it.
enum ReaderPage {
    /// - Parameter capability: the token this page's script alone may send to the rights
    ///   routes (``RightsGuard``); the script reads it and removes it from the page.
    static func response(title: String, capability: String) -> Response {
        let title = escaped(title.isEmpty ? "Lectern" : title)
        let html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="lectern-capability" content="\(escaped(capability))">
            <title>\(title)</title>
            <link rel="stylesheet" href="~lectern/reader.css">
            <script src="~lectern/reader.js" defer></script>
            </head>
            <body>
            <header>
            <button id="toc-toggle" type="button" aria-expanded="false" aria-controls="toc">Contents</button>
            <h1 id="title">\(title)</h1>
            <button id="prev" type="button" aria-label="Previous">&#8592;</button>
            <span id="position" aria-live="polite"></span>
            <button id="next" type="button" aria-label="Next">&#8594;</button>
            <button id="print" type="button">Print</button>
            <button id="theme" type="button">Dark</button>
            </header>
            <div id="layout">
            <nav id="toc" aria-label="Table of contents" hidden></nav>
            <main><iframe id="content" title="Publication content" sandbox="\(ContentPolicy.frameSandbox)"></iframe></main>
            </div>
            <p id="message" role="status"></p>
            </body>
            </html>

            """
        var headers = ServerResponse.commonHeaders
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.contentSecurityPolicy] = ContentPolicy.readerPage
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

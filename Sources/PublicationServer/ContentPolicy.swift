/// The Content-Security-Policy of everything the server sends, and the sandbox of the
/// reader's frame: what a book's documents may load and do (docs/SERVER-SECURITY.md).
enum ContentPolicy {
    /// Every response but the reader page: a book's documents (XHTML, HTML, SVG, proxied
    /// remote ones) and anything else. Sandboxed even when opened outside the reader's frame:
    /// no script runs, no form is sent, no popup opens, the top page is never navigated; it
    /// keeps its origin so that the reader page may gate copying in it. Everything it loads
    /// comes from its own publication's origin (or `data:`/`blob:`): nothing is sent to
    /// another origin — not another served book, not the network — whatever its markup asks
    /// (`<img>`, styles, fonts, `<link rel=prefetch>`, media, frames, a `<meta>` referrer).
    static let book = "sandbox allow-same-origin allow-modals; default-src 'self' data: blob:; script-src 'none'; "
        + "script-src-attr 'none'; worker-src 'none'; connect-src 'none'; object-src 'none'; manifest-src 'none'; "
        + "style-src 'self' 'unsafe-inline' data: blob:; img-src 'self' data: blob:; font-src 'self' data: blob:; "
        + "media-src 'self' data: blob:; frame-src 'self' data: blob:; form-action 'none'; base-uri 'self'; "
        + "frame-ancestors 'self'"

    /// The reader page: its own script only (no inline script), everything from its own
    /// origin, its frame only on its own origin (a book's document that navigates its frame
    /// elsewhere, even by a link the reader follows, is stopped), never framed itself.
    static let readerPage = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        + "img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; frame-src 'self'; object-src 'none'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The reader's frame: a book's document keeps its origin (the reader page reaches into
    /// it to gate copying and to print, hence `allow-modals`) but runs no script, opens no
    /// popup, sends no form and cannot navigate the reader page.
    static let frameSandbox = "allow-same-origin allow-modals"
}

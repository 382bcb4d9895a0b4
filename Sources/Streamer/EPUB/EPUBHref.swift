import Shared

/// Turns the hrefs written in EPUB documents into the hrefs of the publication.
enum EPUBHref {
    /// Resolves `href`, written in the document at `base`, to a publication href: absolute
    /// URLs are kept; package paths are RFC 3986-resolved (so `..` never leaves the package)
    /// and written in one percent-encoded form (`xhtml/一.xhtml` and `xhtml/%E4%B8%80.xhtml`
    /// both become the latter), with the fragment kept and any query dropped. Nil when
    /// nothing is left, e.g. an empty path.
    static func resolve(_ href: String, against base: String) -> String? {
        let resolved = Href.resolve(href, against: base)
        if Href.isAbsoluteURL(resolved) { return resolved }
        guard let path = Href.path(of: resolved), !path.isEmpty else { return nil }
        var canonical = Href.fromPath(path)
        if let fragment = Href.fragment(of: resolved), !fragment.isEmpty { canonical += "#" + fragment }
        return canonical
    }

    /// The href of a package path (as found in `container.xml` or `encryption.xml`).
    static func of(path: String) -> String {
        Href.fromPath(path)
    }
}

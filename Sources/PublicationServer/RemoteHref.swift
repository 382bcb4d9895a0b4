import Shared

/// A remote (`http(s):`) href of a manifest as a path on the server, under
/// `~remote/SCHEME/AUTHORITY/PATH`: the browser only ever asks the local server, which asks
/// the publication's Fetcher (and so the HTTP client that injects the host's credentials).
/// The URL's own path is kept, so that relative links inside a remote chapter resolve to the
/// remote neighbours' local paths; only URLs the manifest lists are served (no open proxy).
enum RemoteHref {
    static let prefix = "~remote"

    /// The local href (percent-encoded as the URL was, with its fragment) of an absolute
    /// `http(s)` URL; nil for other hrefs and for URLs that cannot map onto a path (user
    /// information, an empty segment, a query).
    static func localHref(of url: String) -> String? {
        guard Href.isHTTP(url), let scheme = Href.scheme(of: url)?.lowercased() else { return nil }
        let afterScheme = url.dropFirst(scheme.count + 3)
        let fragmentStart = afterScheme.firstIndex(of: "#") ?? afterScheme.endIndex
        let withoutFragment = afterScheme[..<fragmentStart]
        guard !withoutFragment.contains("?") else { return nil }
        let pathStart = withoutFragment.firstIndex(of: "/") ?? withoutFragment.endIndex
        let authority = withoutFragment[..<pathStart].lowercased()
        let path = withoutFragment[pathStart...]
        guard !authority.isEmpty, !authority.contains("@"), !authority.contains("\\"),
              path.count > 1, !path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).contains(where: \.isEmpty)
        else { return nil }
        return "\(prefix)/\(scheme)/\(authority)\(path)" + afterScheme[fragmentStart...]
    }

    /// The server path (percent-decoded, without fragment, as routes give it) of a remote URL.
    static func localPath(of url: String) -> String? {
        guard let href = localHref(of: url) else { return nil }
        let plain = Href.removingFragment(href)
        return plain.split(separator: "/").map { Href.percentDecoded(String($0)) ?? String($0) }.joined(separator: "/")
    }
}

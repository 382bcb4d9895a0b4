import Shared

/// The origin of a URL (scheme, host and port, lower-cased, default ports made explicit):
/// credentials go only to the origin of the catalog they were given for.
public enum CatalogOrigin {
    public static func of(_ url: String) -> String? {
        guard let scheme = Href.scheme(of: url)?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        let rest = url.dropFirst(scheme.count + 1)
        guard rest.hasPrefix("//") else { return nil }
        var authority = rest.dropFirst(2).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        // User information (user:password@) is not part of the origin.
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = String(authority).lowercased()
        var port = scheme == "https" ? "443" : "80"
        if let colon = host.lastIndex(of: ":"), !host[colon...].contains("]") {
            let given = String(host[host.index(after: colon)...])
            if !given.isEmpty { port = given }
            host = String(host[..<colon])
        }
        guard !host.isEmpty else { return nil }
        return "\(scheme)://\(host):\(port)"
    }
}

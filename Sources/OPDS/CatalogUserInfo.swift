import Shared

/// The user information of a catalog URL (`http://bob:S3cr3t@host/opds`): a password written
/// there would otherwise be printed with the URL, kept in the feed cache and sent by libcurl
/// to whatever host a redirect names. It is taken out of the URL and handed to the credential
/// store (a saved catalog's user name and password) or to a ``CatalogSession``.
public struct CatalogUserInfo: Sendable, Hashable {
    /// The URL without its user information.
    public let url: String
    /// The user name, percent-decoded; nil when the URL had no user information.
    public let username: String?
    /// The password, percent-decoded; nil when the URL had none.
    public let password: String?

    /// Splits `url`; a URL without user information (or not http/https) comes back unchanged.
    public init(splitting url: String) {
        guard let scheme = Href.scheme(of: url)?.lowercased(), scheme == "http" || scheme == "https",
              url.dropFirst(scheme.count).hasPrefix("://") else {
            self.url = url
            username = nil
            password = nil
            return
        }
        let start = url.index(url.startIndex, offsetBy: scheme.count + 3)
        let rest = url[start...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@") else {
            self.url = url
            username = nil
            password = nil
            return
        }
        let info = authority[..<at]
        self.url = String(url[..<start]) + String(rest[rest.index(after: at)...])
        if let colon = info.firstIndex(of: ":") {
            username = Self.decoded(info[..<colon])
            password = Self.decoded(info[info.index(after: colon)...])
        } else {
            username = Self.decoded(info)
            password = nil
        }
    }

    /// Whether the URL carried user information.
    public var hadUserInfo: Bool { username != nil }

    private static func decoded(_ text: Substring) -> String {
        Href.percentDecoded(String(text)) ?? String(text)
    }
}

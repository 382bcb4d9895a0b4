import HTTPTypes
import Hummingbird
import Synchronization

/// Who may call the rights routes (`~readium/rights/copy`, `~readium/rights/print`), which
/// spend a license's copy and print allowances: only the reader page's own script.
///
/// Each reader page served carries a fresh capability (a random token in a `<meta>` element
/// its script removes at once); the rights routes require it in the ``headerName`` header.
/// A custom header cannot be sent cross-origin without a CORS preflight, which this server
/// never grants, and a book's document can send no header at all (it runs no script, and an
/// `<img>` or a link sends none). On top of that, a browser's request must say it comes
/// from this very origin (`Sec-Fetch-Site: same-origin`, `Origin` equal to the origin
/// addressed): a capability that leaked still cannot be spent by another site.
final class RightsGuard: Sendable {
    /// The request header carrying the reader page's capability.
    static let headerName = "Lectern-Capability"
    /// Reader pages (tabs, reloads) whose capability is still honoured; older ones are forgotten.
    static let remembered = 64

    private let capabilities = Mutex<[String]>([])

    /// A new capability for one reader page.
    func mint() -> String {
        let token = ServerSecret().description
        capabilities.withLock { list in
            list.append(token)
            if list.count > Self.remembered { list.removeFirst(list.count - Self.remembered) }
        }
        return token
    }

    /// Nil when `request` may spend rights; otherwise the 403 to answer.
    func refusal(of request: Request) -> Response? {
        let headers = request.headers
        if let site = headers[HTTPField.Name("Sec-Fetch-Site")!], site != "same-origin" {
            return Self.refused("the request does not come from the reader page's origin")
        }
        if let from = headers[.origin], !Self.isSameOrigin(from, authority: request.head.authority) {
            return Self.refused("the request does not come from the reader page's origin")
        }
        guard let given = headers[HTTPField.Name(Self.headerName)!], isKnown(given) else {
            return Self.refused("only the reader page may spend the publication's rights")
        }
        return nil
    }

    /// `Origin` (`http://HOST:PORT`) names the authority the request was sent to (whose
    /// `Host` the server already checked).
    static func isSameOrigin(_ origin: String, authority: String?) -> Bool {
        guard let authority else { return false }
        return origin.lowercased() == "http://" + authority.lowercased()
    }

    private func isKnown(_ given: String) -> Bool {
        capabilities.withLock { list in
            // Every candidate compared in full, so that timing reveals no prefix.
            list.reduce(false) { found, token in ServerSecret(token).matches(Substring(given)) || found }
        }
    }

    private static func refused(_ why: String) -> Response {
        ServerResponse.problem(.forbidden, title: "Rights refused", detail: why)
    }
}

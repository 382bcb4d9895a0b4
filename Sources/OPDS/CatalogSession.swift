import FoundationEssentials
import Shared
import Synchronization

/// How a catalog was signed in to, kept between runs by the caller (secrets included).
public struct CatalogSignIn: Sendable, Hashable {
    /// ``AuthenticationDocument/basic`` or ``AuthenticationDocument/oauthPassword``; nil until
    /// the catalog first asked.
    public var type: String?
    public var tokenURL: String?
    public var accessToken: String?
    /// The LCP user key the token response carried.
    public var lcpHashedPassphrase: String?
    /// When the token expires (from the token response's `expires_in`).
    public var tokenExpiresAt: Date?

    public init(type: String? = nil, tokenURL: String? = nil, accessToken: String? = nil, lcpHashedPassphrase: String? = nil,
                tokenExpiresAt: Date? = nil) {
        self.type = type
        self.tokenURL = tokenURL
        self.accessToken = accessToken
        self.lcpHashedPassphrase = lcpHashedPassphrase
        self.tokenExpiresAt = tokenExpiresAt
    }
}

/// The HTTP client of one catalog with a user name and password (Authentication for OPDS 1.0),
/// over the plain client (libcurl by default) with its redirects turned off.
///
/// Requests to the catalog's origin carry its credentials (Basic, or an OAuth bearer token got
/// from the token endpoint with the password); a 401 there signs in once (a new token when the
/// old one expired) and retries; a second 401 is "wrong card number or PIN". Redirects on the
/// catalog's origin are followed hop by hop, and as soon as one leads to another origin the
/// rest of the exchange goes through the plain client with no credentials. Requests for other
/// origins never carry them. (libcurl's own redirect handling decides by host, and its rules
/// changed between versions: the origin check is made here, for every hop.)
public final class CatalogSession: HTTPClient, Sendable {
    private let origin: String?
    private let username: String
    private let password: String
    private let state: Mutex<CatalogSignIn>
    private let onChange: @Sendable (CatalogSignIn) -> Void
    private let plain: any HTTPClient

    /// `onChange` is called with the new state after each sign-in (to save the token).
    public init(catalogURL: String, username: String, password: String, signIn: CatalogSignIn = CatalogSignIn(),
                plain: any HTTPClient = CurlHTTPClient(), onChange: @escaping @Sendable (CatalogSignIn) -> Void = { _ in }) {
        origin = CatalogOrigin.of(catalogURL)
        self.username = username
        self.password = password
        state = Mutex(signIn)
        self.onChange = onChange
        self.plain = plain
    }

    /// The current sign-in.
    public var signIn: CatalogSignIn { state.withLock { $0 } }

    /// Whether `url` is on the catalog's origin (and so may be sent its credentials).
    public func isCatalogOrigin(_ url: String) -> Bool {
        origin != nil && CatalogOrigin.of(url) == origin
    }

    public func send(_ request: HTTPRequest) -> Result<HTTPResponse, HTTPError> {
        exchange(request, path: nil, onProgress: nil, isCancelled: { false })
    }

    public func download(_ request: HTTPRequest, to path: String,
                         onProgress: @escaping @Sendable (Int64, Int64?) -> Void,
                         isCancelled: @escaping @Sendable () -> Bool) -> Result<HTTPResponse, HTTPError> {
        exchange(request, path: path, onProgress: onProgress, isCancelled: isCancelled)
    }

    private func exchange(_ request: HTTPRequest, path: String?, onProgress: (@Sendable (Int64, Int64?) -> Void)?,
                          isCancelled: @escaping @Sendable () -> Bool) -> Result<HTTPResponse, HTTPError> {
        guard isCatalogOrigin(request.url) else { return viaPlain(request, path: path, onProgress: onProgress, isCancelled: isCancelled) }
        var signedInNow = false
        // A token known to have expired is renewed before it is sent (that counts as the
        // one sign-in of this exchange).
        let current = signIn
        if current.type == AuthenticationDocument.oauthPassword, let tokenURL = current.tokenURL,
           let expiry = current.tokenExpiresAt, expiry <= Date() {
            signedInNow = true
            switch token(from: tokenURL, wrong: .other("wrong user name or password")) {
            case .success(let renewed): update(renewed)
            case .failure(let error): return .failure(error)
            }
        }
        while true {
            let sent = signIn
            let result = hops(request, path: path, onProgress: onProgress, isCancelled: isCancelled)
            guard case .success(let response) = result, response.statusCode == 401, isCatalogOrigin(response.url) else {
                return result
            }
            let document = AuthenticationDiscovery.document(in: response, client: plain)
            let wrong = HTTPError.other(document?.wrongCredentials ?? "wrong user name or password")
            if signedInNow { return .failure(wrong) }
            signedInNow = true
            let challenge = (response.headers["www-authenticate"] ?? "").lowercased()
            // calibre's content server asks for Digest over plain http (its default auth mode).
            if document == nil, challenge.hasPrefix("digest") { return .failure(.other(Self.digestRefusal)) }
            let basicOffered = document == nil && challenge.hasPrefix("basic")
            let flow = document?.usableFlow
                ?? (basicOffered ? AuthenticationDocument.Flow(type: AuthenticationDocument.basic) : nil)
            guard let flow else { return result }
            switch flow.type {
            case AuthenticationDocument.basic:
                // Basic credentials already sent and refused: they are wrong.
                if sent.type == AuthenticationDocument.basic { return .failure(wrong) }
                update(CatalogSignIn(type: AuthenticationDocument.basic))
            case AuthenticationDocument.oauthPassword:
                guard let tokenURL = flow.authenticateURL else {
                    return .failure(.other("the catalog offers no token endpoint to sign in to"))
                }
                switch token(from: tokenURL, wrong: wrong) {
                case .success(let signIn): update(signIn)
                case .failure(let error): return .failure(error)
                }
            case AuthenticationDocument.oauthImplicit:
                return .failure(.other("this catalog signs in through a web page: open "
                                       + (flow.authenticateURL ?? response.url) + " in a browser"))
            default:
                return result
            }
        }
    }

    static let digestRefusal = "the catalog asks for HTTP Digest sign-in, which Lectern does not support: only Basic "
        + "(best over https) and OAuth (for a calibre server: calibre-server --auth-mode basic)"

    private func update(_ signIn: CatalogSignIn) {
        state.withLock { $0 = signIn }
        onChange(signIn)
    }

    /// The `Authorization` header of the current sign-in, if any.
    private func authorization() -> String? {
        let signIn = signIn
        switch signIn.type {
        case AuthenticationDocument.basic:
            return "Basic " + Data((username + ":" + password).utf8).base64EncodedString()
        case AuthenticationDocument.oauthPassword:
            return signIn.accessToken.map { "Bearer " + $0 }
        default:
            return nil
        }
    }

    /// Follows redirects one at a time while on the catalog's origin, with credentials; hands
    /// over to the plain client (no credentials) once a redirect leaves it.
    private func hops(_ request: HTTPRequest, path: String?, onProgress: (@Sendable (Int64, Int64?) -> Void)?,
                      isCancelled: @escaping @Sendable () -> Bool) -> Result<HTTPResponse, HTTPError> {
        var current = request
        for _ in 0..<10 {
            guard isCatalogOrigin(current.url) else {
                return viaPlain(current, path: path, onProgress: onProgress, isCancelled: isCancelled)
            }
            var signed = current
            if let authorization = authorization() { signed.headers["Authorization"] = authorization }
            signed.followRedirects = false
            let result = path.map { plain.download(signed, to: $0, onProgress: onProgress ?? { _, _ in }, isCancelled: isCancelled) }
                ?? plain.send(signed)
            guard case .success(let response) = result, [301, 302, 303, 307, 308].contains(response.statusCode),
                  let location = response.headers["location"] else { return result }
            let next = Href.resolve(location.trimmed, against: current.url)
            guard Href.isHTTP(next) else { return .failure(.other("the server redirected to an address that is not http(s)")) }
            if response.statusCode == 303 || (response.statusCode != 307 && response.statusCode != 308 && current.method == "POST") {
                current.method = "GET"
                current.body = nil
            }
            current.url = next
        }
        return .failure(.other("too many redirects"))
    }

    private func viaPlain(_ request: HTTPRequest, path: String?, onProgress: (@Sendable (Int64, Int64?) -> Void)?,
                          isCancelled: @escaping @Sendable () -> Bool) -> Result<HTTPResponse, HTTPError> {
        var request = request
        request.headers["Authorization"] = nil
        guard let path else { return plain.send(request) }
        return plain.download(request, to: path, onProgress: onProgress ?? { _, _ in }, isCancelled: isCancelled)
    }

    /// A bearer token from the OAuth token endpoint (resource owner password grant), which must
    /// be on the catalog's origin: the password goes nowhere else, and not through a redirect.
    private func token(from url: String, wrong: HTTPError) -> Result<CatalogSignIn, HTTPError> {
        guard isCatalogOrigin(url) else {
            return .failure(.other("the catalog's sign-in endpoint is on another host; Lectern sends your password only to the catalog's own"))
        }
        let body = "grant_type=password&username=" + Self.formEncoded(username) + "&password=" + Self.formEncoded(password)
        var request = HTTPRequest(url: url, method: "POST",
                                  headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
                                  body: Data(body.utf8), maxBodySize: 1 << 20)
        // A redirect would carry the password elsewhere: the endpoint must answer itself.
        request.followRedirects = false
        switch plain.send(request) {
        case .failure(let error): return .failure(error)
        case .success(let response) where response.statusCode == 400 || response.statusCode == 401:
            return .failure(wrong)
        case .success(let response) where !response.isSuccess:
            return .failure(.other("the catalog's sign-in endpoint answered HTTP \(response.statusCode)"))
        case .success(let response):
            guard let json = try? JSONParser.parse([UInt8](response.body)), let token = json["access_token"]?.string,
                  !token.isEmpty else {
                return .failure(.other("the catalog's sign-in endpoint did not give a token"))
            }
            let expiresIn = json["expires_in"]?.double ?? json["expires_in"]?.string.flatMap(Double.init)
            return .success(CatalogSignIn(type: AuthenticationDocument.oauthPassword, tokenURL: url, accessToken: token,
                                          lcpHashedPassphrase: json["lcp_hashed_passphrase"]?.string ?? signIn.lcpHashedPassphrase,
                                          tokenExpiresAt: expiresIn.map { Date().addingTimeInterval($0) }))
        }
    }

    /// `application/x-www-form-urlencoded`: every byte but the unreserved ones percent-encoded.
    static func formEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, Character(scalar).isLetter || Character(scalar).isNumber || "-._~".unicodeScalars.contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else {
                out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }
}

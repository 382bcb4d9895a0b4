import FoundationEssentials
import OPDS
import Shared
import Testing

/// Origins (what may receive a catalog's credentials), authentication documents, and the
/// HTTP exchange of a session driven through a scripted client.
@Suite struct AuthenticationTests {
    @Test func originsCompareSchemeHostAndPort() {
        #expect(CatalogOrigin.of("https://Library.example/opds") == "https://library.example:443")
        #expect(CatalogOrigin.of("https://library.example:443/x") == CatalogOrigin.of("https://library.example/y"))
        #expect(CatalogOrigin.of("http://library.example/x") != CatalogOrigin.of("https://library.example/x"))
        #expect(CatalogOrigin.of("http://library.example:8080/x") != CatalogOrigin.of("http://library.example/x"))
        #expect(CatalogOrigin.of("http://evil.example@library.example/x") == "http://library.example:80")
        #expect(CatalogOrigin.of("http://library.example.evil.example/") == "http://library.example.evil.example:80")
        #expect(CatalogOrigin.of("ftp://library.example/") == nil)
        #expect(CatalogOrigin.of("http:///nohost") == nil)
    }

    @Test func theDocumentGivesFlowsLabelsAndTheTokenEndpoint() throws {
        let bytes = Array("""
            {"title": "Northfield", "authentication": [
              {"type": "http://opds-spec.org/auth/oauth/password", "labels": {"login": "Card number", "password": "PIN"},
               "links": [{"rel": "authenticate", "href": "/token"}]},
              {"type": "http://opds-spec.org/auth/basic"}]}
            """.utf8)
        let document = try #require(AuthenticationDocument.parse(bytes, url: "https://lib.example/auth.json"))
        #expect(document.title == "Northfield")
        #expect(document.usableFlow?.type == AuthenticationDocument.basic)
        #expect(document.flows.first?.authenticateURL == "https://lib.example/token")
        #expect(document.labels == "Card number, PIN")
        #expect(document.wrongCredentials == "wrong card number or PIN")
        #expect(AuthenticationDocument.parse(Array("<html>".utf8)) == nil)
    }

    /// The session against a scripted client: a 401, the sign-in, the retry; and a redirect
    /// to another origin taken without the credentials.
    @Test func aSessionSignsInOnceAndKeepsCredentialsToItsOrigin() throws {
        let document = Data(#"{"title": "T", "authentication": [{"type": "http://opds-spec.org/auth/basic"}]}"#.utf8)
        let client = ScriptedClient { request in
            switch (request.url, request.headers["Authorization"]) {
            case ("https://lib.example/feed", nil): HTTPResponse(url: request.url, statusCode: 401, body: document)
            case ("https://lib.example/feed", _): HTTPResponse(url: request.url, statusCode: 302,
                                                             headers: ["location": "https://cdn.example/feed"])
            default: HTTPResponse(url: request.url, statusCode: 200, body: Data("ok".utf8))
            }
        }
        let session = CatalogSession(catalogURL: "https://lib.example/", username: "u", password: "p", plain: client)
        let response = try session.send(HTTPRequest(url: "https://lib.example/feed")).get()
        #expect(response.statusCode == 200)
        let seen = client.requests.map { "\($0.url) \($0.headers["Authorization"] ?? "-") \($0.followRedirects)" }
        #expect(seen == ["https://lib.example/feed - false", "https://lib.example/feed Basic dTpw false",
                         "https://cdn.example/feed - true"])
        #expect(session.signIn.type == AuthenticationDocument.basic)
    }

    /// A server asking for HTTP Digest (calibre's default over http) is told to be one Lectern
    /// cannot sign in to, rather than "asks you to sign in"; the password is never sent.
    @Test func aDigestChallengeIsRefusedWithItsReason() throws {
        let client = ScriptedClient { request in
            HTTPResponse(url: request.url, statusCode: 401,
                         headers: ["www-authenticate": #"Digest realm="calibre", nonce="n", algorithm="MD5", qop="auth""#])
        }
        let session = CatalogSession(catalogURL: "http://127.0.0.1:8080/opds", username: "u", password: "p", plain: client)
        let result = session.send(HTTPRequest(url: "http://127.0.0.1:8080/opds"))
        guard case .failure(let error) = result else { Issue.record("a 401 Digest was not refused"); return }
        #expect("\(error)".contains("HTTP Digest"))
        #expect(client.requests.count == 1)
        #expect(client.requests.allSatisfy { $0.headers["Authorization"] == nil })
    }
}

/// An ``HTTPClient`` answering from a closure and recording the requests.
final class ScriptedClient: HTTPClient, @unchecked Sendable {
    private let answer: @Sendable (HTTPRequest) -> HTTPResponse
    private let lock = PosixLock()
    private var recorded: [HTTPRequest] = []

    init(_ answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.answer = answer
    }

    var requests: [HTTPRequest] { lock.withLock { recorded } }

    func send(_ request: HTTPRequest) -> Result<HTTPResponse, HTTPError> {
        lock.withLock { recorded.append(request) }
        return .success(answer(request))
    }

    func download(_ request: HTTPRequest, to path: String, onProgress: @escaping @Sendable (Int64, Int64?) -> Void,
                  isCancelled: @escaping @Sendable () -> Bool) -> Result<HTTPResponse, HTTPError> {
        send(request)
    }
}

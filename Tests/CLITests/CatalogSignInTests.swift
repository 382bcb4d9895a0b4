import Foundation
import Testing
import TestSupport

/// Authentication for OPDS 1.0 against loopback catalogs: Basic, OAuth password with a token
/// that expires, wrong passwords, and credentials kept from a second origin.
@Suite struct CatalogSignInTests {
    let lectern = LecternProcess()

    static let feed = """
        <feed xmlns="http://www.w3.org/2005/Atom"><id>p</id><title>Members' shelf</title>
        <entry><title>Private Book</title><id>pb</id>
        <link rel="http://opds-spec.org/acquisition" href="/files/private.epub" type="application/epub+zip"/></entry></feed>
        """

    static func document(_ type: String, token: String? = nil) -> Data {
        let links = token.map { #", "links": [{"rel": "authenticate", "href": "\#($0)"}]"# } ?? ""
        return Data("""
            {"id": "auth", "title": "Northfield Public Library",
             "authentication": [{"type": "\(type)", "labels": {"login": "Card number", "password": "PIN"}\(links)}]}
            """.utf8)
    }

    static func basic(_ user: String, _ password: String) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    static func protected(_ path: String, accepting: [String], document: Data, status: Int = 200,
                          headers: [String: String] = ["Content-Type": "application/atom+xml"], text: String = feed) -> TestHTTPRoute {
        var route = TestHTTPRoute(path, status: status, headers: headers, text: text)
        route.authorization = accepting
        route.refusal = (401, ["Content-Type": "application/opds-authentication+json"], document)
        return route
    }

    @Test func basicSignsInAfterTheFirst401AndAtOnceAfterwards() throws {
        let server = try TestHTTPServer(routes: [
            Self.protected("/feed.xml", accepting: [Self.basic("1234", "0000")], document: Self.document("http://opds-spec.org/auth/basic")),
        ])
        let unsigned = try lectern.run(["catalog", server.url("/feed.xml")])
        #expect(unsigned.status == 1)
        #expect(unsigned.stderr.contains("the catalog asks you to sign in to Northfield Public Library (Card number, PIN)"),
                "\(unsigned.stderr)")

        #expect(try lectern.run(["catalog", "add", server.url("/feed.xml"), "--name", "lib",
                                 "--username", "1234", "--password", "0000"]).status == 0)
        let first = try lectern.run(["catalog", "browse", "lib"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("1. Private Book"))
        let second = try lectern.run(["catalog", "browse", "lib"])
        #expect(second.status == 0, "\(second.stderr)")
        let sent = server.requests.map { $0.headers["authorization"] }
        // Unsigned run, then 401 + retry, then the credentials at once.
        #expect(sent == [nil, nil, Self.basic("1234", "0000"), Self.basic("1234", "0000")])
    }

    @Test func aWrongPasswordIsSaidInTheCatalogsWords() throws {
        let server = try TestHTTPServer(routes: [
            Self.protected("/feed.xml", accepting: [Self.basic("1234", "0000")], document: Self.document("http://opds-spec.org/auth/basic")),
        ])
        #expect(try lectern.run(["catalog", "add", server.url("/feed.xml"), "--name", "lib",
                                 "--username", "1234", "--password", "9999"]).status == 0)
        let result = try lectern.run(["catalog", "browse", "lib"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("wrong card number or PIN"), "\(result.stderr)")
        #expect(!result.stderr.contains("9999"))
    }

    @Test func oauthPasswordGetsATokenAndRenewsItOnceWhenItExpires() throws {
        let oauth = "http://opds-spec.org/auth/oauth/password"
        func routes(feedAccepts token: String, tokens: [String]) -> [TestHTTPRoute] {
            var tokenRoute = TestHTTPRoute("/token", headers: ["Content-Type": "application/json"], text: "", methods: ["POST"])
            tokenRoute.bodyMustContain = "password=0%2B0"
            tokenRoute.refusal = (400, ["Content-Type": "application/json"], Data(#"{"error": "invalid_grant"}"#.utf8))
            tokenRoute.sequence = tokens.map { Data(#"{"access_token": "\#($0)", "token_type": "bearer", "expires_in": 3600}"#.utf8) }
            return [Self.protected("/feed.xml", accepting: ["Bearer \(token)"], document: Self.document(oauth, token: "/token")), tokenRoute]
        }
        let server = try TestHTTPServer(routes: routes(feedAccepts: "first", tokens: ["first"]))
        #expect(try lectern.run(["catalog", "add", server.url("/feed.xml"), "--name", "lib",
                                 "--username", "1234", "--password", "0+0"]).status == 0)
        let first = try lectern.run(["catalog", "browse", "lib"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("Private Book"))

        // The first token expires: the catalog refuses it, one new token is got, and used.
        try server.setRoutes(routes(feedAccepts: "second", tokens: ["second"]))
        let renewed = try lectern.run(["catalog", "browse", "lib"])
        #expect(renewed.status == 0, "\(renewed.stderr)")
        let again = try lectern.run(["catalog", "browse", "lib"])
        #expect(again.status == 0, "\(again.stderr)")
        let log = server.requests.map { "\($0.method) \($0.path) \($0.headers["authorization"] ?? "-")" }
        #expect(log == [
            "GET /feed.xml -", "POST /token -", "GET /feed.xml Bearer first",
            "GET /feed.xml Bearer first", "POST /token -", "GET /feed.xml Bearer second",
            "GET /feed.xml Bearer second",
        ], "\(log)")

        // Signing out forgets the token: the catalog asks again.
        #expect(try lectern.run(["catalog", "signout", "lib"]).status == 0)
        let out = try lectern.run(["catalog", "browse", "lib"])
        #expect(out.status == 1)
        #expect(out.stderr.contains("the catalog asks you to sign in to Northfield Public Library"), "\(out.stderr)")
    }

    @Test func aWrongOAuthPasswordIsSaid() throws {
        var tokenRoute = TestHTTPRoute("/token", text: #"{"access_token": "t"}"#, methods: ["POST"])
        tokenRoute.bodyMustContain = "password=0000"
        tokenRoute.refusal = (400, [:], Data(#"{"error": "invalid_grant"}"#.utf8))
        let server = try TestHTTPServer(routes: [
            Self.protected("/feed.xml", accepting: ["Bearer t"],
                           document: Self.document("http://opds-spec.org/auth/oauth/password", token: "/token")),
            tokenRoute,
        ])
        #expect(try lectern.run(["catalog", "add", server.url("/feed.xml"), "--name", "lib",
                                 "--username", "1234", "--password", "1111"]).status == 0)
        let result = try lectern.run(["catalog", "browse", "lib"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("wrong card number or PIN"), "\(result.stderr)")
    }

    /// A redirect to another origin (another port of the same host) is followed without the
    /// credentials; the catalog's own origin had them.
    @Test func aRedirectToAnotherOriginGetsNoCredentials() throws {
        let elsewhere = try TestHTTPServer(routes: [
            TestHTTPRoute("/moved.xml", headers: ["Content-Type": "application/atom+xml"], text: Self.feed),
        ])
        let server = try TestHTTPServer(routes: [
            Self.protected("/feed.xml", accepting: [Self.basic("1234", "0000")], document: Self.document("http://opds-spec.org/auth/basic"),
                           status: 302, headers: ["Location": elsewhere.url("/moved.xml")], text: ""),
        ])
        #expect(try lectern.run(["catalog", "add", server.url("/feed.xml"), "--name", "lib",
                                 "--username", "1234", "--password", "0000"]).status == 0)
        let result = try lectern.run(["catalog", "browse", "lib"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Private Book"))
        #expect(server.requests.last?.headers["authorization"] == Self.basic("1234", "0000"))
        #expect(elsewhere.requests.count == 1)
        #expect(elsewhere.requests.allSatisfy { $0.headers["authorization"] == nil })
    }

    /// OAuth implicit is a web page: its address is printed. A token endpoint on another
    /// origin is never sent the password.
    @Test func implicitPrintsThePageAndAForeignTokenEndpointGetsNothing() throws {
        let foreign = try TestHTTPServer(routes: [TestHTTPRoute("/token", text: #"{"access_token": "t"}"#)])
        let server = try TestHTTPServer(routes: [
            Self.protected("/implicit.xml", accepting: ["Bearer t"],
                           document: Self.document("http://opds-spec.org/auth/oauth/implicit", token: "/sign-in")),
            Self.protected("/foreign.xml", accepting: ["Bearer t"],
                           document: Self.document("http://opds-spec.org/auth/oauth/password", token: foreign.url("/token"))),
        ])
        let implicit = try lectern.run(["catalog", server.url("/implicit.xml")])
        #expect(implicit.status == 1)
        #expect(implicit.stderr.contains("open \(server.url("/sign-in")) in a browser"), "\(implicit.stderr)")

        #expect(try lectern.run(["catalog", "add", server.url("/foreign.xml"), "--name", "lib",
                                 "--username", "1234", "--password", "0000"]).status == 0)
        let result = try lectern.run(["catalog", "browse", "lib"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("sends your password only to the catalog's own"), "\(result.stderr)")
        #expect(foreign.requests.isEmpty)
    }

    /// A token whose `expires_in` has passed is renewed before it is sent, not after a 401.
    @Test func anExpiredTokenIsRenewedBeforeItIsSent() throws {
        var tokenRoute = TestHTTPRoute("/token", headers: ["Content-Type": "application/json"], text: "", methods: ["POST"])
        tokenRoute.sequence = [Data(#"{"access_token": "short", "expires_in": 0}"#.utf8),
                               Data(#"{"access_token": "long", "expires_in": 3600}"#.utf8)]
        let server = try TestHTTPServer(routes: [
            Self.protected("/feed.xml", accepting: ["Bearer short", "Bearer long"],
                           document: Self.document("http://opds-spec.org/auth/oauth/password", token: "/token")),
            tokenRoute,
        ])
        #expect(try lectern.run(["catalog", "add", server.url("/feed.xml"), "--name", "lib",
                                 "--username", "1234", "--password", "0000"]).status == 0)
        for _ in 0..<3 {
            let result = try lectern.run(["catalog", "browse", "lib"])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let log = server.requests.map { "\($0.method) \($0.path) \($0.headers["authorization"] ?? "-")" }
        #expect(log == ["GET /feed.xml -", "POST /token -", "GET /feed.xml Bearer short",
                        "POST /token -", "GET /feed.xml Bearer long", "GET /feed.xml Bearer long"], "\(log)")
    }
}

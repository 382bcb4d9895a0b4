import FoundationEssentials
import LibCrypto
import Shared

/// The kosync protocol's four calls (koreader-sync-server's routes, as KOReader's
/// `kosync.koplugin` makes them).
///
/// Each call blocks a Dispatch thread, never the caller's: `await` them from any task, the
/// interface's included. Connecting may take 2 s and each silence 5 s (KOReader's own
/// figures for a push), so a server gone away costs seconds, never the reading.
public struct KosyncClient: Sendable {
    /// The media type every request accepts; the reference server answers 412 without it.
    public static let accept = "application/vnd.koreader.v1+json"
    static let connectTimeout = 2.0
    static let readTimeout = 5.0

    /// The server, without a trailing slash.
    public let server: String
    private let http: any HTTPClient

    /// A client of the server at `server` (`https://sync.example.org`, or with a path prefix).
    /// The default HTTP client remembers hosts that did not answer on its own, so that a dead
    /// sync server does not slow the other downloads.
    public init(server: String, http: any HTTPClient = CurlHTTPClient(unresponsiveHosts: UnresponsiveHosts(memory: 30))) {
        var server = server.trimmed
        while server.hasSuffix("/") { server.removeLast() }
        self.server = server
        self.http = http
    }

    /// The key the protocol sends for `password`: its MD5, in lower-case hexadecimal.
    public static func key(forPassword password: String) -> String {
        Digest.md5(Array(password.utf8)).hexString
    }

    /// Creates the user (`POST /users/create`); the key stands for the password, as KOReader
    /// registers.
    public func register(username: String, key: String) async throws(KosyncError) {
        let body = JSONValue.object(JSONObject(["username": .string(username), "password": .string(key)]))
        _ = try await exchange("POST", "/users/create", auth: nil, body: body, expecting: [201])
    }

    /// Checks the user name and key (`GET /users/auth`).
    public func authorize(_ account: KosyncAccount) async throws(KosyncError) {
        _ = try await exchange("GET", "/users/auth", auth: account, body: nil, expecting: [200])
    }

    /// Stores the place (`PUT /syncs/progress`); the server's timestamp of it.
    @discardableResult
    public func push(_ place: KosyncPlace, as account: KosyncAccount) async throws(KosyncError) -> Int? {
        let answer = try await exchange("PUT", "/syncs/progress", auth: account, body: place.requestJSON, expecting: [200])
        return answer["timestamp"]?.int ?? answer["timestamp"]?.double.map { Int($0) }
    }

    /// The place last stored for `document` by any device, nil when none was.
    public func pull(document: String, as account: KosyncAccount) async throws(KosyncError) -> KosyncPlace? {
        guard document.utf8.allSatisfy({ $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "_") }), !document.isEmpty else {
            throw .notConfigured("not a document id: \(document)")
        }
        let answer = try await exchange("GET", "/syncs/progress/" + document, auth: account, body: nil, expecting: [200])
        return KosyncPlace(response: answer, document: document)
    }

    private func exchange(_ method: String, _ path: String, auth: KosyncAccount?, body: JSONValue?,
                          expecting: Set<Int>) async throws(KosyncError) -> JSONValue {
        guard server.hasPrefix("http://") || server.hasPrefix("https://") else {
            throw .notConfigured("the sync server must be an http:// or https:// URL")
        }
        var headers = ["Accept": Self.accept]
        if let auth {
            headers["x-auth-user"] = auth.username
            headers["x-auth-key"] = auth.key
        }
        if body != nil { headers["Content-Type"] = "application/json" }
        let request = HTTPRequest(url: server + path, method: method, headers: headers,
                                  body: body.map { Data(JSONWriter().bytes($0)) }, timeout: 0,
                                  connectTimeout: Self.connectTimeout, stallTimeout: Self.readTimeout, maxBodySize: 1 << 20)
        let response: HTTPResponse
        switch await http.send(request) {
        case .success(let answer): response = answer
        case .failure(let error): throw .unreachable(error)
        }
        let json = try? JSONParser.parse(response.body)
        guard expecting.contains(response.statusCode) else { throw Self.failure(response, json: json) }
        guard let json, json.object != nil else {
            throw .serverFailure(status: response.statusCode, message: "the answer is not the protocol's JSON")
        }
        return json
    }

    /// The typed failure of an answer with an unexpected status.
    static func failure(_ response: HTTPResponse, json: JSONValue?) -> KosyncError {
        let code = json?["code"]?.int
        let message = json?["message"]?.string
        switch response.statusCode {
        case 401: return .unauthorized
        case 402 where code == 2002: return .usernameTaken
        case 500...: return .serverFailure(status: response.statusCode, message: message)
        default: return .refused(status: response.statusCode, code: code, message: message)
        }
    }
}

extension UInt8 {
    fileprivate var isASCIIAlphanumeric: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
    }
}

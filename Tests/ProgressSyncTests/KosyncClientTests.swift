import Foundation
import ProgressSync
import Shared
import Testing
import TestSupport

/// The protocol against the test server, which follows koreader-sync-server: its answers
/// (statuses, JSON shapes) first, then Lectern's client on it.
@Suite struct KosyncClientTests {
    /// The server itself, spoken to with curl: what the reference server answers.
    @Test func theServerFollowsTheProtocol() throws {
        let server = try KosyncTestServer()
        defer { server.stop() }
        func call(_ method: String, _ path: String, accept: Bool = true, user: String? = nil, key: String? = nil,
                  body: String? = nil) throws -> (Int, String) {
            var arguments = ["curl", "-s", "-o", "-", "-w", "\n%{http_code}", "-X", method]
            if accept { arguments += ["-H", "Accept: application/vnd.koreader.v1+json"] }
            if let user { arguments += ["-H", "x-auth-user: \(user)"] }
            if let key { arguments += ["-H", "x-auth-key: \(key)"] }
            if let body { arguments += ["-H", "Content-Type: application/json", "--data-binary", body] }
            let output = String(decoding: try Command.run(arguments + [server.baseURL + path]), as: UTF8.self)
            let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
            return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
        }
        let key = KosyncClient.key(forPassword: "secret")
        #expect(try call("GET", "/users/auth", accept: false, user: "a", key: key).0 == 412)
        #expect(try call("POST", "/users/create", body: #"{"username":"a","password":"\#(key)"}"#) == (201, #"{"username": "a"}"#))
        let taken = try call("POST", "/users/create", body: #"{"username":"a","password":"x"}"#)
        #expect(taken.0 == 402 && taken.1.contains("2002"))
        #expect(try call("GET", "/users/auth", user: "a", key: key) == (200, #"{"authorized": "OK"}"#))
        #expect(try call("GET", "/users/auth", user: "a", key: "wrong").0 == 401)
        #expect(try call("GET", "/syncs/progress/abc", user: "a", key: key) == (200, "{}"))
        let put = try call("PUT", "/syncs/progress", user: "a", key: key,
                           body: #"{"document":"abc","progress":"7","percentage":0.25,"device":"d","device_id":"I"}"#)
        #expect(put.0 == 200 && put.1.contains(#""document": "abc""#) && put.1.contains(#""timestamp""#))
        let got = try call("GET", "/syncs/progress/abc", user: "a", key: key)
        #expect(got.0 == 200 && got.1.contains(#""progress": "7""#) && got.1.contains(#""device_id": "I""#))
    }

    @Test func registerAuthorizePushAndPull() async throws {
        let server = try KosyncTestServer()
        defer { server.stop() }
        let client = KosyncClient(server: server.baseURL + "/")
        let key = KosyncClient.key(forPassword: "secret")
        #expect(key == "5ebe2294ecd0e0f08eab7690d2a6ee69")
        try await client.register(username: "reader", key: key)
        await #expect { try await client.register(username: "reader", key: key) } throws: { error in
            guard case KosyncError.usernameTaken = error else { return false }
            return true
        }
        let account = KosyncAccount(server: server.baseURL, username: "reader", key: key)
        try await client.authorize(account)
        await #expect { try await client.authorize(KosyncAccount(server: server.baseURL, username: "reader", key: "nope")) } throws: { error in
            guard case KosyncError.unauthorized = error else { return false }
            return true
        }
        #expect(try await client.pull(document: "0123abcd", as: account) == nil)
        let place = KosyncPlace(document: "0123abcd", progress: "/body/DocFragment[3]/body/p[2]/text().5", percentage: 0.432_19,
                                device: "Lectern on test", deviceID: "DEV1")
        let stamp = try await client.push(place, as: account)
        #expect(stamp != nil)
        let back = try #require(try await client.pull(document: "0123abcd", as: account))
        #expect(back.progress == place.progress && back.percentage == 0.4322 && back.device == "Lectern on test")
        #expect(back.deviceID == "DEV1" && back.timestamp == stamp)
        // Every request said what it accepts, and none carried the password itself.
        for request in try server.requests() {
            let headers = request["headers"] as? [String: String] ?? [:]
            #expect(headers["accept"] == KosyncClient.accept)
            #expect(!headers.values.contains("secret"))
        }
    }

    /// Nothing listening: a typed, transient failure (the place would be queued).
    @Test func anUnreachableServerIsTransient() async throws {
        let server = try KosyncTestServer()
        let url = server.baseURL
        server.stop()
        let account = KosyncAccount(server: url, username: "u", key: "k")
        do {
            try await KosyncClient(server: url).authorize(account)
            Issue.record("authorized by a stopped server")
        } catch {
            guard case .unreachable = error else { Issue.record("not unreachable: \(error)"); return }
            #expect(error.isTransient)
        }
    }

    /// A server that accepts and never answers fails as timed out (the 5 s stall timeout), not
    /// waiting for ever. Not timed: tests never assert a time (a loaded CI machine took minutes
    /// to come back to this test's task).
    @Test func aSilentServerTimesOut() async throws {
        let server = try TestHTTPServer(routes: [TestHTTPRoute("/users/auth", behaviour: .hang)])
        defer { server.stop() }
        do {
            try await KosyncClient(server: server.baseURL).authorize(KosyncAccount(server: server.baseURL, username: "u", key: "k"))
            Issue.record("a silent server authorized")
        } catch {
            guard case .unreachable(.timedOut) = error else { Issue.record("not a timeout: \(error)"); return }
        }
    }

    @Test func aURLThatIsNotHTTPIsRefusedBeforeAnyRequest() async {
        await #expect { try await KosyncClient(server: "ftp://example.org").authorize(KosyncAccount(server: "", username: "u", key: "k")) } throws: { error in
            guard case KosyncError.notConfigured = error else { return false }
            return true
        }
    }
}

import Foundation
import Testing
import TestSupport

/// Manifests whose resources are remote: `info` reads them without fetching anything,
/// `check` fetches through HTTP.
@Suite struct RemoteManifestTests {
    let lectern = LecternProcess()

    @Test func infoOnTheFlatlandManifestNeedsNoNetwork() throws {
        // A proxy that does not exist: any HTTP request would fail.
        let result = try lectern.run(["info", "--json", Fixtures.sample("audiobook/readium-flatland-librivox.audiobook-manifest.json")],
                                     environment: ["http_proxy": "http://127.0.0.1:9", "https_proxy": "http://127.0.0.1:9"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(result.json as? [String: Any])
        #expect(object["format"] as? String == "audiobook-manifest")
        let manifest = try #require(object["manifest"] as? [String: Any])
        let order = try #require(manifest["readingOrder"] as? [[String: Any]])
        #expect(order.count == 9)
        #expect((order.first?["href"] as? String)?.hasPrefix("http") == true)
    }

    @Test func infoFetchesNothingAndCheckFetchesEverything() throws {
        let root = Fixtures.temporaryDirectory("remote-root")
        for name in ["a.mp3", "b.mp3"] {
            try Data(repeating: UInt8(name.count), count: 1000).write(to: URL(fileURLWithPath: root + "/" + name))
        }
        let port = Int.random(in: 41000..<49000)
        let log = root + "/requests.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        server.arguments = ["-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", root]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle(forWritingAtPath: log)
        try server.run()
        defer { server.terminate() }
        // Wait for the server.
        try StateWait.blocking("the HTTP server", interval: .milliseconds(50)) {
            (try? String(contentsOf: URL(string: "http://127.0.0.1:\(port)/a.mp3")!, encoding: .isoLatin1)) != nil
        }
        let baseline = try String(contentsOfFile: log, encoding: .utf8).components(separatedBy: "\n").count

        let manifest = """
            {"@context": "https://readium.org/webpub-manifest/context.jsonld",
             "metadata": {"@type": "http://schema.org/Audiobook", "title": "Remote tracks"},
             "readingOrder": [
               {"href": "http://127.0.0.1:\(port)/a.mp3", "type": "audio/mpeg"},
               {"href": "http://127.0.0.1:\(port)/b.mp3", "type": "audio/mpeg"}]}
            """
        let path = Fixtures.temporaryDirectory("remote") + "/remote.json"
        try Data(manifest.utf8).write(to: URL(fileURLWithPath: path))

        func logged() throws -> [String] {
            Array(try String(contentsOfFile: log, encoding: .utf8).components(separatedBy: "\n").dropFirst(baseline - 1))
                .filter { !$0.isEmpty }
        }
        /// Waits until a logged request line satisfies `condition`; false when none did by
        /// the deadline.
        func waitForLogged(_ condition: (String) -> Bool) throws -> Bool {
            do {
                try StateWait.blocking("a logged request", interval: .milliseconds(50)) { try logged().contains(where: condition) }
                return true
            } catch is StateWait.Timeout {
                return false
            }
        }

        let info = try lectern.run(["info", path])
        #expect(info.status == 0, "\(info.stderr)")
        // A request of the test's own, made after `info` exited, reaching the log proves that
        // anything `info` had sent would be there too.
        _ = try? String(contentsOf: URL(string: "http://127.0.0.1:\(port)/after-info")!, encoding: .isoLatin1)
        #expect(try waitForLogged { $0.contains("/after-info") })
        #expect(try logged().filter { $0.contains(".mp3") } == [])

        let check = try lectern.run(["check", "--json", path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(try waitForLogged { $0.contains("/a.mp3") })
        #expect(try waitForLogged { $0.contains("/b.mp3") })
        let resources = try #require((check.json as? [String: Any])?["resources"] as? [[String: Any]])
        #expect(resources.count == 2)
        #expect(resources.allSatisfy { $0["length"] as? Int == 1000 })
    }
}

/// A web publication whose resources sit on a server that accepted the connection and went
/// silent: the first read waits out the stall timeout, the others fail at once with the
/// reason, and the server is asked once.
@Suite struct SilentServerTests {
    @Test func fourDeadResourcesCostOneTimeout() throws {
        let silent = try TestHTTPServer(routes: [TestHTTPRoute("/", matchesPrefix: true, behaviour: .hang)])
        defer { silent.stop() }
        let manifest = """
            {"metadata": {"title": "Silent"},
             "readingOrder": [\((1...4).map { "{\"href\": \"\(silent.url("/c\($0).html"))\", \"type\": \"text/html\"}" }.joined(separator: ", "))]}
            """
        let path = Fixtures.temporaryDirectory("silent-server") + "/book.json"
        try Data(manifest.utf8).write(to: URL(fileURLWithPath: path))
        let result = try LecternProcess().run(["check", path], timeout: 120)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(silent.requests.count == 1, "\(silent.requests.map(\.path))")
        let quarantined = result.stdout.components(separatedBy: "\n").filter { $0.contains("did not answer a moment ago") }
        #expect(quarantined.count == 3, "\(result.stdout)")
    }
}

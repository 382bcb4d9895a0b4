import Foundation
import Testing
import TestSupport

/// The content-protection routes of `lectern serve` on an LCP sample (copy 2048 characters,
/// print 100 pages): peek never consumes, copy and print consume exactly, the limits hold,
/// and the counters are the ones the terminal reader's process consumes too.
@Suite struct RightsRouteTests {
    let lectern = LecternProcess()

    func left(_ response: RawHTTPClient.Response) -> (copy: Int?, print: Int?) {
        let rights = response.json?["rights"] as? [String: Any]
        return (rights?["copyCharactersLeft"] as? Int, rights?["printPagesLeft"] as? Int)
    }

    func query(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    @Test func copyAndPrintConsumeTheSameCountersAsTheReader() throws {
        let server = try ServeProcess([ServeCommandTests.lcpWasteland, "--passphrase", "dan"], publications: 1, home: lectern)
        defer { server.stop() }
        let client = try server.readerPageClient()
        let base = server.path() + "~readium/"

        let status = try client.request(base + "content-protection")
        #expect(status.status == 200)
        #expect(status.json?["isRestricted"] as? Bool == false)
        #expect(status.json?["name"] as? String == "Readium LCP")
        #expect(left(status).copy == 2048 && left(status).print == 100)

        let hundred = String(repeating: "é", count: 100)
        let peek = try client.request(base + "rights/copy?text=\(query(hundred))&peek=true")
        #expect(peek.status == 200)
        #expect(left(peek).copy == 2048)
        let copy = try client.request(base + "rights/copy?text=\(query(hundred))&peek=false")
        #expect(copy.status == 200)
        #expect(left(copy).copy == 1948)

        // The terminal reader's counters are the same: another process consumes 3 more.
        let other = try lectern.run(["consume-rights", ServeCommandTests.lcpWasteland, "--copy", "abc"])
        #expect((other.json as? [String: Any])?["charactersLeft"] as? Int == 1945, "\(other.stdout) \(other.stderr)")

        let tooMuch = try client.request(base + "rights/copy?text=\(String(repeating: "x", count: 1946))")
        #expect(tooMuch.status == 403)
        #expect(tooMuch.headers["content-type"] == "application/problem+json")
        #expect((tooMuch.json?["detail"] as? String)?.contains("1945") == true)
        #expect(left(tooMuch).copy == 1945)
        #expect(try client.request(base + "rights/copy?text=\(String(repeating: "x", count: 1945))&peek=true").status == 200)
        #expect(try client.request(base + "rights/copy?text=\(String(repeating: "x", count: 1945))").status == 200)
        let exhausted = try client.request(base + "rights/copy?text=x")
        #expect(exhausted.status == 403)
        #expect(left(exhausted).copy == 0)

        #expect(left(try client.request(base + "rights/print?pageCount=60&peek=true")).print == 100)
        let printed = try client.request(base + "rights/print?pageCount=60")
        #expect(printed.status == 200 && left(printed).print == 40)
        #expect(try client.request(base + "rights/print?pageCount=41").status == 403)
        #expect(try client.request(base + "rights/print?pageCount=40").status == 200)
        #expect(try client.request(base + "rights/print?pageCount=1").status == 403)
        #expect(try client.request(base + "rights/print?pageCount=zero").status == 400)
        #expect(try client.request(base + "rights/copy").status == 400)
        #expect(server.stop() == 0)
    }

    @Test func anUnprotectedPublicationAllowsEverything() throws {
        let server = try ServeProcess([ServeCommandTests.wasteland], publications: 1, home: lectern)
        defer { server.stop() }
        let base = server.path() + "~readium/"
        let status = try server.client.request(base + "content-protection")
        #expect(status.json?["isRestricted"] as? Bool == false)
        #expect((status.json?["rights"] as? [String: Any])?["canCopy"] as? Bool == true)
        let client = try server.readerPageClient()
        #expect(try client.request(base + "rights/copy?text=anything").status == 200)
        #expect(try client.request(base + "rights/print?pageCount=1000").status == 200)
        #expect(server.stop() == 0)
    }
}

/// The browser and the terminal reader copying at the same time from one LCP license never
/// get more than it grants, and together get all of it.
@Suite struct ConcurrentRightsTests {
    @Test func theServerAndAnotherProcessNeverOverConsume() throws {
        let lectern = LecternProcess()
        let server = try ServeProcess([ServeCommandTests.lcpWasteland, "--passphrase", "dan"], publications: 1, home: lectern)
        defer { server.stop() }
        let client = try server.readerPageClient()
        let url = server.path() + "~readium/rights/copy?text=abc"
        let granted = Counter()
        let home = lectern.home
        nonisolated(unsafe) var other: LecternProcess.Result?
        DispatchQueue.concurrentPerform(iterations: 9) { worker in
            if worker == 0 {
                other = try? LecternProcess(home: home).run(["consume-rights", ServeCommandTests.lcpWasteland, "--copy", "abc", "--times", "400"])
                return
            }
            for _ in 0..<50 {
                if (try? client.request(url))?.status == 200 { granted.add() }
            }
        }
        let report = try #require(other?.json as? [String: Any], "\(other?.stderr ?? "")")
        let otherGranted = try #require(report["granted"] as? Int)
        // 2048 characters allow 682 copies of three; 400 + 400 attempts ask for more.
        #expect(granted.value + otherGranted == 682)
        let status = try client.request(server.path() + "~readium/content-protection")
        #expect((status.json?["rights"] as? [String: Any])?["copyCharactersLeft"] as? Int == 2)
        #expect(server.stop() == 0)
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.lock(); count += 1; lock.unlock() }
        var value: Int { lock.lock(); defer { lock.unlock() }; return count }
    }
}

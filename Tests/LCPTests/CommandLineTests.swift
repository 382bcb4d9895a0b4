import Foundation
import LibCrypto
import Testing
import TestSupport

/// `lectern check` and `info` on the LCP samples, run as processes, and two processes
/// consuming copy rights at once.
@Suite struct CommandLineTests {
    let lectern = LecternProcess()

    func sha256(_ data: Data) -> String { Digest.sha256(data).hexString }

    func check(_ sample: SampleVector, passphrase: String?, json: Bool = true) throws -> (LecternProcess.Result, [String: Any]) {
        var arguments = ["check"]
        if json { arguments.append("--json") }
        if let passphrase { arguments += ["--passphrase", passphrase] }
        let result = try lectern.run(arguments + [sample.path], timeout: 60)
        return (result, (result.json as? [String: Any]) ?? [:])
    }

    func hashes(_ report: [String: Any]) -> [String: String] {
        var hashes: [String: String] = [:]
        for resource in report["resources"] as? [[String: Any]] ?? [] {
            if let href = resource["href"] as? String, let hash = resource["sha256"] as? String { hashes[href] = hash }
        }
        return hashes
    }

    @Test func wastelandChecksWithDan() throws {
        let (result, report) = try check(.wasteland, passphrase: "dan")
        #expect(result.status == 0, "\(result.stderr)")
        let hashes = hashes(report)
        #expect(hashes.count == 10)
        let original = try SampleVector.entry("EPUB/wasteland-content.xhtml", of: Fixtures.sample("epub/idpf-wasteland.epub"))
        #expect(hashes["EPUB/wasteland-content.xhtml"] == sha256(original))
        #expect(hashes["EPUB/fonts.css"] == "230dba67ff57bc27f9c87dd9bf9936c85a05cc79073f931e73e98170fdc92033")
        #expect(hashes["EPUB/wasteland.css"] == "d2dece2e199f47ec83e6d9bf8bf9836f78af550b9bf2602f897d1b08d3d04240")
        #expect(hashes["EPUB/wasteland-night.css"] == "e38b6e163d5909176f71d3e7026c7e365703ffb329e1283605ee9401c7850ad2")
        #expect(hashes["EPUB/wasteland-cover.jpg"] == sha256(try SampleVector.entry("EPUB/wasteland-cover.jpg", of: SampleVector.wasteland.path)))
        let license = try #require(report["license"] as? [String: Any])
        #expect(license["id"] as? String == SampleVector.wasteland.id)
        #expect(license["provider"] as? String == "provider")
        #expect((license["user"] as? [String: Any])?["name"] as? String == "Daniel Weck")
        #expect(license["issued"] as? String == "2017-10-31T11:23:03Z")
        #expect(license["copiesLeft"] as? Int == 2048)
        #expect(license["printsLeft"] as? Int == 100)
        #expect(license["certificate"] as? String == "legacyTestCertificate")
    }

    @Test func daisyChecksWithTest() throws {
        let (result, report) = try check(.daisy, passphrase: "test")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(hashes(report) == ["publication.pdf": "761c8c0430a542abb7e6ce011d3572f55faab29a961e74edf2fbe832bd624851"])
        #expect((report["license"] as? [String: Any])?["printsLeft"] as? Int == 2)
    }

    @Test func referenceServerSampleChecksWithoutWaitingOnItsStatusServer() throws {
        let (result, report) = try check(.referenceServer, passphrase: "correct horse battery staple")
        #expect(result.status == 0, "\(result.stderr)")
        let source = Fixtures.sample("lcp/readium-lcp-server-book-source.epub")
        let hashes = hashes(report)
        #expect(hashes.count == 6)
        for (href, hash) in hashes {
            #expect(hash == sha256(try SampleVector.entry(href, of: source)), "\(href)")
        }
        let license = try #require(report["license"] as? [String: Any])
        #expect(license["end"] as? String == "2031-01-01T00:00:00Z")
        #expect(license["certificate"] as? String == "chain")
        #expect(license["status"] is NSNull)
    }

    @Test func truncatedEPUBIsReadFromItsEntriesWithTest() throws {
        // Its package document is missing: the two content documents are read in name order,
        // decrypted and inflated, with a warning that the reading order was rebuilt.
        let (result, report) = try check(.epubLCP, passphrase: "test")
        #expect(result.status == 0, "\(result.stderr)")
        let hashes = hashes(report)
        #expect(hashes.count == 2)
        #expect(hashes["OPS/chapter_001.xhtml"] == "13ae04e21177babedfde721577615a638341f963731ea936bbb8c3862f57cdfc")
        let lengths = (report["resources"] as? [[String: Any]] ?? []).compactMap { $0["length"] as? Int }
        #expect(lengths == [13877, 372])
        #expect(report["readingOrder"] as? [String] == ["OPS/chapter_001.xhtml", "OPS/cover.xhtml"])
        let (text, _) = try check(.epubLCP, passphrase: "test", json: false)
        #expect(text.stdout.contains("warning: OPS/package.opf: the package document named by META-INF/container.xml is missing"),
                "\(text.stdout)")
    }

    @Test func wrongPassphraseExitsThreeWithTheHint() throws {
        let (result, report) = try check(.daisy, passphrase: "Test", json: false)
        #expect(result.status == 3)
        #expect(result.stdout.contains("Wrong passphrase. Hint: test"))
        #expect(report.isEmpty)
        let (jsonResult, json) = try check(.wasteland, passphrase: "dan ")
        #expect(jsonResult.status == 3)
        let protection = try #require(json["protection"] as? [String: Any])
        #expect(protection["restricted"] as? Bool == true)
        #expect((protection["error"] as? String)?.hasPrefix("Wrong passphrase. Hint: Your nickname?") == true)
        #expect((json["license"] as? [String: Any])?["locked"] as? Bool == true)
        // Locked, nothing may be copied or printed, but the grant is not "used up".
        let info = try lectern.run(["info", SampleVector.daisy.path, "--passphrase", "Test"])
        #expect(info.stdout.contains("Copies left:  none while locked (2000 characters granted)"), "\(info.stdout)")
        #expect(info.stdout.contains("Prints left:  none while locked (2 pages granted)"))
    }

    @Test func infoShowsTheLicenseAndStoredPassphrasesAreReused() throws {
        _ = try check(.daisy, passphrase: "test")
        let result = try lectern.run(["info", SampleVector.daisy.path])
        #expect(result.status == 0, "\(result.stderr)")
        for line in ["License:      b1192756-82ea-432f-a077-c0f002f04af9", "Provider:     https://www.edrlab.org",
                     "User:         Test Case <test@domain.com>", "Issued:       2020-07-30 10:53 UTC",
                     "Copies left:  2000 characters (of 2000)", "Prints left:  2 pages (of 2)",
                     "Certificate:  signed with the legacy LCP test certificate"] {
            #expect(result.stdout.contains(line), "\(line)")
        }
        let strict = try lectern.run(["info", SampleVector.daisy.path], environment: ["LECTERN_LCP_TRUST": "strict"])
        #expect(strict.status == 3)
        #expect(strict.stdout.contains("unknown provider certificate"))
    }

    /// Checking reads every resource but copies and prints nothing.
    @Test func checkDoesNotConsumeRights() throws {
        for _ in 0..<2 {
            let (_, report) = try check(.wasteland, passphrase: "dan")
            #expect((report["license"] as? [String: Any])?["copiesLeft"] as? Int == 2048)
        }
    }

    /// Two processes, started together, copy 3 characters at a time, 500 times each, from a
    /// grant of 2048: 682 copies succeed in all and 2 characters remain, never less.
    @Test func twoProcessesNeverExceedTheCopyGrant() throws {
        _ = try check(.wasteland, passphrase: "dan")
        let start = String(Date().timeIntervalSince1970 + 2)
        let arguments = ["consume-rights", SampleVector.wasteland.path, "--copy", "abc", "--times", "500", "--start-at", start]
        nonisolated(unsafe) var results: [LecternProcess.Result?] = [nil, nil]
        nonisolated(unsafe) let process = lectern
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            results[index] = try? process.run(arguments, timeout: 120)
        }
        let reports = results.compactMap { $0?.json as? [String: Any] }
        #expect(reports.count == 2, "\(results.map { $0?.stderr ?? "" })")
        let granted = reports.compactMap { $0["granted"] as? Int }
        #expect(granted.reduce(0, +) == 682)
        #expect(granted.allSatisfy { $0 > 0 })
        let (_, report) = try check(.wasteland, passphrase: nil)
        #expect((report["license"] as? [String: Any])?["copiesLeft"] as? Int == 2)
    }

    /// When the state database cannot be opened, LCP books are refused with the path and the
    /// reason — never opened with an in-memory database, which granted the whole copy
    /// allowance again at every run. Open books still open.
    @Test func anUnusableStateDirectoryRefusesLCPBooksAndSaysWhy() throws {
        // A file where the data directory should be: even root cannot create the database.
        let blocker = lectern.home + "/not-a-directory"
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        let environment = ["XDG_DATA_HOME": blocker]
        for _ in 0..<3 {
            let copy = try lectern.run(["consume-rights", SampleVector.wasteland.path, "--passphrase", "dan", "--copy", "abc"],
                                       environment: environment)
            #expect(copy.status == 2, "\(copy.stdout)")
            #expect(copy.stderr.contains(blocker + "/lectern/library.sqlite cannot be opened"), "\(copy.stderr)")
            #expect(copy.stderr.contains("copy and print rights already used are not granted again"), "\(copy.stderr)")
        }
        let check = try lectern.run(["check", "--passphrase", "dan", SampleVector.wasteland.path], environment: environment)
        #expect(check.status == 2, "\(check.stderr)")
        let license = try lectern.run(["license", "info", SampleVector.wasteland.path], environment: environment)
        #expect(license.status == 2 && license.stderr.contains("cannot be opened"), "\(license.stderr)")
        let open = try lectern.run(["check", Fixtures.sample("epub/idpf-wasteland.epub")], environment: environment)
        #expect(open.status == 0, "\(open.stderr)")
    }
}

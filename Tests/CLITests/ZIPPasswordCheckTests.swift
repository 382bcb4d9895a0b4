import Foundation
import Testing
import TestSupport

/// `lectern check --password` on the password-protected ZIP samples, run as a process.
@Suite struct ZIPPasswordCheckTests {
    let lectern = LecternProcess()

    static let samples: [(protected: String, original: String)] = [
        ("protected-zip/derived-wasteland-pkzip-secret.epub", "epub/idpf-wasteland.epub"),
        ("protected-zip/derived-wasteland-winzip-aes256-secret.epub", "epub/idpf-wasteland.epub"),
        ("protected-zip/derived-page-blanche-excerpt-pkzip-secret.cbz", "cbz/derived-page-blanche-excerpt.cbz"),
    ]

    /// `check --json` of `path`: the exit status, the report, and the SHA-256 by href.
    func check(_ path: String, _ extra: [String] = []) throws -> (status: Int32, report: [String: Any], hashes: [String: String]) {
        let result = try lectern.run(["check", "--json", path] + extra)
        let report = try #require(result.json as? [String: Any], "stdout: \(result.stdout) stderr: \(result.stderr)")
        var hashes: [String: String] = [:]
        for resource in report["resources"] as? [[String: Any]] ?? [] {
            if let href = resource["href"] as? String { hashes[href] = resource["sha256"] as? String ?? "unreadable" }
        }
        return (result.status, report, hashes)
    }

    @Test(arguments: samples.map(\.protected))
    func rightPasswordExitsZeroWithTheOriginalHashes(_ sample: String) throws {
        let original = try check(Fixtures.sample(Self.samples.first { $0.protected == sample }!.original))
        #expect(original.status == 0)
        let protected = try check(Fixtures.sample(sample), ["--password", "secret"])
        #expect(protected.status == 0)
        #expect(!protected.hashes.isEmpty)
        #expect(protected.hashes == original.hashes)
        let protection = try #require(protected.report["protection"] as? [String: Any])
        #expect(protection["scheme"] as? String == "zip-password")
        #expect(protection["name"] as? String == "ZIP password")
        #expect(protection["restricted"] as? Bool == false)
    }

    @Test(arguments: samples.map(\.protected))
    func missingPasswordExitsTwoWithAClearMessage(_ sample: String) throws {
        let result = try lectern.run(["check", Fixtures.sample(sample)])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("a password is required"), "\(result.stderr)")
    }

    @Test(arguments: samples.map(\.protected))
    func wrongPasswordExitsTwoWithAClearMessage(_ sample: String) throws {
        let result = try lectern.run(["check", Fixtures.sample(sample), "--password", "not-the-secret"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("incorrect password"), "\(result.stderr)")
    }

    @Test func textOutputNamesTheProtection() throws {
        let result = try lectern.run(["check", Fixtures.sample(Self.samples[1].protected), "--password", "secret"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Protection: ZIP password"))
        #expect(result.stdout.contains("6 of 6 resources readable"))
    }
}

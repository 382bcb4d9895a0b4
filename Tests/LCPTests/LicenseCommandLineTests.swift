import Foundation
import LibCrypto
import Shared
import Testing
import TestSupport

/// `lectern acquire`, `lectern license …` and `info`/`check` on a bare license, run as
/// processes against the loopback License Status and content server.
@Suite struct LicenseCommandLineTests {
    let server: StatusServer
    let lectern = LecternProcess()
    /// Trust the test PKI, and no revocation list unless a test asks for one.
    let environment: [String: String]

    init() throws {
        server = try StatusServer()
        environment = ["LECTERN_LCP_ANCHORS": TestPKI.shared.directory + "/ca/ca.pem", "LECTERN_LCP_CRL_URL": "none"]
    }

    func run(_ arguments: [String], _ extra: [String: String] = [:]) throws -> LecternProcess.Result {
        try lectern.run(arguments, timeout: 60, environment: environment.merging(extra) { $1 })
    }

    func json(_ result: LecternProcess.Result) -> [String: Any] { result.json as? [String: Any] ?? [:] }

    /// A book whose license the server manages (register, renew, return), opened once so that
    /// this device is registered and the loan active.
    func loanedBook(state: [String: Any] = [:], adjust: (inout LicenseSpec) -> Void = { _ in }) throws -> (path: String, license: ForgedLicense) {
        var spec = LicenseSpec()
        adjust(&spec)
        spec.statusURL = server.statusURL(spec.id)
        spec.rights = JSONObject(["copy": .int(100), "end": .string("2027-01-01T00:00:00Z")])
        let license = try LicenseForge.make(spec)
        let path = Fixtures.temporaryDirectory("lcp-cli-loan") + "/book.epub"
        try PackageForge.epub(at: path, license: license, resources: [
            ForgedResource("OEBPS/chapter1.xhtml", PackageForge.text(3000), mediaType: "application/xhtml+xml"),
        ])
        var values: [String: Any] = ["license": license.text, "signer": ["key": spec.signer.keyPath],
                                     "potential_end": "2027-06-01T00:00:00Z"]
        values.merge(state) { $1 }
        try server.configure(spec.id, values)
        let opened = try run(["check", "--passphrase", "open sesame", path])
        #expect(opened.status == 0, "\(opened.stderr)")
        return (path, license)
    }

    // MARK: - acquire

    @Test func acquireDownloadsShowsProgressAndPrintsThePath() throws {
        let served = try ServedPublication.make(on: server)
        let folder = Fixtures.temporaryDirectory("lcp-cli-acquire")
        let result = try run(["acquire", served.lcplPath, "--output", folder])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == folder + "/Served Book.epub\n")
        #expect(result.stderr.contains("100%"))
        #expect(result.stderr.contains("] "))
        // Standard error is a pipe here: the bar is written once, with no escape sequence.
        #expect(!result.stderr.contains("\u{1B}") && !result.stderr.contains("\r"), "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "100%").count == 2, "\(result.stderr)")
        let check = try run(["check", "--json", "--passphrase", "open sesame", folder + "/Served Book.epub"])
        #expect(check.status == 0, "\(check.stderr)")
        let resources = json(check)["resources"] as? [[String: Any]] ?? []
        for chapter in served.chapters {
            let entry = resources.first { $0["href"] as? String == chapter.path }
            #expect(entry?["sha256"] as? String == Digest.sha256(chapter.plaintext).hexString, "\(chapter.path)")
        }
    }

    /// What a double-click on a downloaded license runs: `lectern open FILE.lcpl` acquires the
    /// publication into the library (progress shown), adds it, and opens that file; opening the
    /// license again does not download it twice. (No terminal here: the reader itself then
    /// refuses to start, after the acquisition.)
    @Test func openingALicenseAcquiresAndImportsItsPublicationOnce() throws {
        let served = try ServedPublication.make(on: server)
        let first = try run(["open", served.lcplPath])
        #expect(first.status == 2, "\(first.stderr)")
        #expect(first.stderr.contains("100%"), "\(first.stderr)")
        #expect(first.stderr.contains("need a terminal"), "\(first.stderr)")
        let folder = lectern.home + "/data/lectern/publications"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(files == ["Served Book.epub"])
        let listed = try run(["list", "--json"])
        let entries = listed.json as? [[String: Any]] ?? []
        #expect(entries.count == 1)
        #expect(entries.first?["title"] as? String == "Forged LCP Book")
        #expect(entries.first?["path"] as? String == folder + "/Served Book.epub")
        #expect(entries.first?["protection"] as? String == "lcp")

        let second = try run(["open", served.lcplPath])
        #expect(second.status == 2)
        #expect(!second.stderr.contains("100%"), "downloaded again: \(second.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["Served Book.epub"])
    }

    @Test func openingALicenseWhoseServerIsGoneSaysSo() throws {
        let served = try ServedPublication.make(on: server) { spec in spec.publicationURL = "http://127.0.0.1:1/gone.epub" }
        let result = try run(["open", served.lcplPath])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("lectern: \(served.lcplPath): "), "\(result.stderr)")
        #expect(!result.stderr.contains("need a terminal"))
    }

    /// The library's loan column comes from the license repository (`list --json` here, the
    /// bookshelf's column alike).
    @Test func theLibraryShowsTheLoanFromTheLicenseRepository() throws {
        let (path, _) = try loanedBook()
        #expect(try run(["import", path]).status == 0)
        let listed = try run(["list", "--json"])
        let entry = (listed.json as? [[String: Any]] ?? []).first
        let loan = entry?["loan"] as? String ?? ""
        #expect(loan.hasSuffix(" days left") || loan == "1 day left", "\(listed.stdout)")
        // A library without loans does not open the license repository at all: no loan column values.
        let other = LecternProcess()
        #expect(try other.run(["import", Fixtures.sample("epub/idpf-wasteland.epub")]).status == 0)
        let plain = try other.run(["list", "--json"])
        #expect(((plain.json as? [[String: Any]])?.first?["loan"]) is NSNull)
    }

    @Test func acquireToAFileNameWithJSON() throws {
        let served = try ServedPublication.make(on: server, kind: .lcpdf)
        let target = Fixtures.temporaryDirectory("lcp-cli-acquire") + "/daisy.lcpdf"
        let result = try run(["acquire", served.lcplPath, "--output", target, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = json(result)
        #expect(report["path"] as? String == target)
        #expect(report["format"] as? String == "lcpdf")
        #expect(report["suggestedFilename"] as? String == "Served Book.lcpdf")
        #expect(report["license"] as? String == served.license.id)
    }

    @Test func acquireReportsAHashMismatchAndKeepsNothing() throws {
        let served = try ServedPublication.make(on: server) { $0.publicationHash = String(repeating: "1", count: 64) }
        let folder = Fixtures.temporaryDirectory("lcp-cli-acquire")
        let result = try run(["acquire", served.lcplPath, "--output", folder])
        #expect(result.status == 1)
        #expect(result.stderr.contains("does not match the SHA-256 its license announces; it was deleted."))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    /// Ctrl-C during the download: the partial file is deleted and the exit status is 130.
    @Test func ctrlCCancelsAndDeletesThePartialFile() throws {
        let served = try ServedPublication.make(on: server, serve: ["mode": "slow", "chunk": 1024, "delay": 0.05])
        let folder = Fixtures.temporaryDirectory("lcp-cli-acquire")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: LecternProcess.executable)
        process.arguments = ["acquire", served.lcplPath, "--output", folder]
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        env["XDG_DATA_HOME"] = lectern.home + "/data"
        process.environment = env
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Wait for the download to be under way: a partial file with bytes in it (standard
        // error is no terminal, so no progress bar is drawn).
        func downloading() -> Bool {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            return names.contains { name in
                name.hasSuffix(".part")
                    && ((try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.size] as? Int) ?? 0) > 0
            }
        }
        try? StateWait.blocking("the download", interval: .milliseconds(10)) { downloading() }
        #expect(downloading())
        process.interrupt()
        process.waitUntilExit()
        let seen = err.fileHandleForReading.readDataToEndOfFile()
        #expect(process.terminationStatus == 130, "\(String(decoding: seen, as: UTF8.self))")
        #expect(String(decoding: seen, as: UTF8.self).contains("The download was cancelled; nothing was kept."))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    // MARK: - license

    @Test func licenseInfoShowsThePanel() throws {
        let (path, forged) = try loanedBook()
        let text = try run(["license", "info", path])
        #expect(text.status == 0, "\(text.stderr)")
        for line in ["License:      \(forged.id)", "Provider:     https://provider.example.org", "Loan end:     2027-01-01 00:00 UTC",
                     "Renewable to: 2027-06-01 00:00 UTC", "Status:       active", "Copies left:  100 characters (of 100)",
                     "This device:  registered", "Devices:      1 registered",
                     "Link renew:   \(server.base)/licenses/\(forged.id)/renew{?end,id,name}"] {
            #expect(text.stdout.contains(line), "\(line)\n\(text.stdout)")
        }
        let report = json(try run(["license", "info", path, "--json"]))
        #expect(report["id"] as? String == forged.id)
        #expect(report["status"] as? String == "active")
        #expect(report["deviceRegistered"] as? Bool == true)
        #expect(report["canRenew"] as? Bool == true)
        #expect(report["potentialEnd"] as? String == "2027-06-01T00:00:00Z")
        // hint, publication, status; license, register, renew, return.
        #expect((report["links"] as? [Any])?.count == 7)
    }

    @Test func licenseRenewWithAnEndDate() throws {
        let (path, _) = try loanedBook()
        let result = try run(["license", "renew", path, "--end", "2027-03-01T00:00:00Z", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = json(result)
        #expect(report["ok"] as? Bool == true)
        #expect((report["license"] as? [String: Any])?["end"] as? String == "2027-03-01T00:00:00Z")
        let text = try run(["license", "renew", path, "--end", "2027-04-01"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("The loan was renewed (it ended on 2027-03-01 00:00 UTC); it now ends on 2027-04-01 00:00 UTC."))
    }

    @Test func licenseRenewWithoutEndUsesTheProviderDefault() throws {
        let (path, _) = try loanedBook()
        let result = try run(["license", "renew", path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect((json(result)["license"] as? [String: Any])?["end"] as? String == "2027-01-08T00:00:00Z")
    }

    /// The reference server's 200-unchanged answer beyond its limit is reported.
    @Test func licenseRenewBeyondTheLimitSaysNothingChanged() throws {
        let (path, _) = try loanedBook(state: ["publish_potential_end": false])
        let result = try run(["license", "renew", path, "--end", "2030-01-01", "--json"])
        #expect(result.status == 1)
        let report = json(result)
        #expect(report["ok"] as? Bool == false)
        #expect(report["error"] as? String
            == "The provider accepted the renewal but did not extend the loan to 2030-01-01 00:00 UTC: it still ends on 2027-01-01 00:00 UTC.")
        #expect(result.stderr.contains("did not extend the loan"))
    }

    @Test func licenseRenewBeyondThePublishedLimitIsRefused() throws {
        let (path, _) = try loanedBook()
        let result = try run(["license", "renew", path, "--end", "2030-01-01"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("That renewal date is not allowed (2030-01-01 00:00 UTC); the latest possible end is 2027-06-01 00:00 UTC."))
        let invalid = try run(["license", "renew", path, "--end", "notadate"])
        #expect(invalid.status != 0)
        #expect(invalid.stderr.contains("--end must be a date"))
    }

    @Test func licenseRenewWithOnlyAWebPagePrintsItsAddress() throws {
        let (path, forged) = try loanedBook(state: ["renew_link": "html"])
        let result = try run(["license", "renew", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Renew this loan on the provider's page: \(server.base)/licenses/\(forged.id)/renew-page"))
    }

    @Test func licenseReturnThenReturnAgain() throws {
        let (path, _) = try loanedBook()
        let result = try run(["license", "return", path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = json(result)
        #expect(report["ok"] as? Bool == true)
        #expect((report["license"] as? [String: Any])?["status"] as? String == "returned")
        #expect(((report["license"] as? [String: Any])?["error"] as? String)?.hasPrefix("This book was returned on ") == true)
        let again = try run(["license", "return", path])
        #expect(again.status == 1)
        #expect(again.stderr.contains("This book was already returned."))
        let check = try run(["check", "--passphrase", "open sesame", path])
        #expect(check.status == 3)
        #expect(check.stdout.contains("This book was returned on "))
    }

    @Test func licenseRegisterSaysWhenItWasAlreadyDone() throws {
        let (path, _) = try loanedBook()
        let result = try run(["license", "register", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("This device was already registered."))
    }

    @Test func licenseCommandsOnSomethingElse() throws {
        let result = try run(["license", "info", Fixtures.sample("lcp/swifttoolkit-daisy.pdf")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("not protected with Readium LCP"))
    }

    // MARK: - info and check on a bare license

    @Test func checkStreamsTheLicensedPublication() throws {
        let served = try ServedPublication.make(on: server)
        let result = try run(["check", "--json", "--passphrase", "open sesame", served.lcplPath])
        #expect(result.status == 0, "\(result.stderr)")
        let resources = json(result)["resources"] as? [[String: Any]] ?? []
        for chapter in served.chapters {
            let entry = resources.first { $0["href"] as? String == chapter.path }
            #expect(entry?["sha256"] as? String == Digest.sha256(chapter.plaintext).hexString, "\(chapter.path)")
        }
        let gets = try server.log().filter { $0.path == "/files/book" && $0.method == "GET" }
        #expect(!gets.isEmpty)
        #expect(gets.allSatisfy { $0.range != nil })

        // The passphrase is remembered.
        let info = try run(["info", served.lcplPath])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("Title:        Forged LCP Book"))
        #expect(info.stdout.contains("Protection:   Readium LCP\n"))
        #expect(info.stdout.contains("License:      \(served.license.id)"))
    }

    // MARK: - CRL

    @Test func theRevocationListIsDownloadedCachedAndEnforced() throws {
        try server.serveFile("ca.crl", ["body_b64": try CRLServiceTests.crl().base64EncodedString()])
        let crl = ["LECTERN_LCP_CRL_URL": server.fileURL("ca.crl")]
        let (path, _) = try loanedBook()
        // The first run started the download and let it finish before exiting.
        let info = try run(["license", "info", path, "--passphrase", "open sesame"], crl)
        #expect(info.status == 0, "\(info.stderr)")
        let again = try run(["license", "info", path], crl)
        #expect(again.stdout.contains("Revocation:   checked against the revocation list of "), "\(again.stdout)")

        var spec = LicenseSpec()
        spec.signer = TestPKI.shared.revoked
        let revokedBook = Fixtures.temporaryDirectory("lcp-cli-crl") + "/revoked.epub"
        try PackageForge.epub(at: revokedBook, license: try LicenseForge.make(spec), resources: [
            ForgedResource("OEBPS/chapter1.xhtml", PackageForge.text(1000), mediaType: "application/xhtml+xml"),
        ])
        let check = try run(["check", "--passphrase", "open sesame", revokedBook], crl)
        #expect(check.status == 3)
        #expect(check.stdout.contains("The provider certificate of this license has been revoked."))
        #expect(try server.log().filter { $0.path == "/files/ca.crl" }.count == 1)
    }

    // MARK: - rights that fail closed

    /// A validly signed license whose quotas are negative or not integers grants no copy and
    /// no print (it used to read as unlimited and grant every attempt).
    @Test(arguments: [
        JSONObject(["copy": .int(-100), "print": .int(-5)]),
        JSONObject(["copy": .number("2.5"), "print": .string("10")]),
    ])
    func quotasThatAreNotNaturalNumbersGrantNothing(rights: JSONObject) throws {
        var spec = LicenseSpec()
        spec.rights = rights
        let license = try LicenseForge.make(spec)
        let path = Fixtures.temporaryDirectory("lcp-cli-rights") + "/book.epub"
        try PackageForge.epub(at: path, license: license, resources: [
            ForgedResource("OEBPS/chapter1.xhtml", PackageForge.text(3000), mediaType: "application/xhtml+xml"),
        ])
        let copy = try run(["consume-rights", path, "--passphrase", "open sesame", "--copy", "abc", "--times", "3"])
        #expect(copy.status == 0, "\(copy.stderr)")
        #expect(json(copy)["granted"] as? Int == 0, "\(copy.stdout)")
        let print = try run(["consume-rights", path, "--passphrase", "open sesame", "--pages", "1", "--times", "3"])
        #expect(json(print)["granted"] as? Int == 0, "\(print.stdout)")
        let info = try run(["info", "--json", "--passphrase", "open sesame", path])
        let summary = json(info)["license"] as? [String: Any] ?? [:]
        #expect(summary["copyGrant"] as? Int == 0 && summary["printGrant"] as? Int == 0, "\(info.stdout)")
        #expect(summary["copiesLeft"] as? Int == 0 && summary["printsLeft"] as? Int == 0, "\(info.stdout)")
        let text = try run(["info", "--passphrase", "open sesame", path])
        #expect(!text.stdout.contains("unlimited"), "\(text.stdout)")
    }
}

import Foundation
import LibCrypto
import Shared
import Testing
import TestSupport

/// What a license and its server say, shown by the commands on a terminal.
extension LicenseCommandLineTests {
    // MARK: - what the license and its server say, shown on a terminal

    /// The provider, hint and hint link of a license, and the status document's message,
    /// links and error details, carry escape sequences: `license info`, `info`, `renew` and
    /// `return` show them and write no byte a terminal would execute.
    @Test func licenseAndStatusTextsAreShownNotExecuted() throws {
        let payload = TerminalSafety.payload
        let (path, license) = try loanedBook(state: [
            "message": payload,
            "extra_links": [["rel": "help" + payload, "href": "https://provider.example.org/help" + payload, "type": "text/html"]],
        ]) { spec in
            spec.provider = "https://provider.example.org/" + payload
            spec.hint = "Hint " + payload
            spec.hintLink = "https://provider.example.org/hint" + payload
        }
        func expectInert(_ result: LecternProcess.Result, showing: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) {
            let controls = TerminalSafety.executableControls(in: result.stdout + result.stderr)
            #expect(controls.isEmpty, "\(result.stdout)\(result.stderr)", sourceLocation: sourceLocation)
            if showing {
                #expect((result.stdout + result.stderr).contains(TerminalSafety.shownPayload), "\(result.stdout)\(result.stderr)",
                        sourceLocation: sourceLocation)
            }
        }
        let info = try run(["license", "info", path])
        expectInert(info)
        for field in ["Provider:", "Message:", "https://provider.example.org/hint", "Link help"] {
            #expect(info.stdout.contains(field), "\(field): \(info.stdout)")
        }
        let json = try run(["license", "info", "--json", path])
        expectInert(json, showing: false)
        #expect(json.stdout.contains("\\u009b") && json.stdout.contains("\\u001b"), "\(json.stdout)")
        expectInert(try run(["info", path]))
        // A wrong passphrase shows the hint and its link.
        let wrong = try run(["check", "--passphrase", "wrong", path], ["XDG_DATA_HOME": Fixtures.temporaryDirectory("fresh-home")])
        expectInert(wrong)
        // Errors of renew and return carry the server's `detail`.
        for action in ["renew", "return"] {
            try server.configure(license.id, ["force_problem": ["status": 400, "type": "renew/date", "title": "No " + payload,
                                                                 "detail": "Because " + payload]])
            expectInert(try run(["license", action, path]))
        }
    }

    // MARK: - servers that do not answer

    /// A bare license whose publication server accepts connections and never answers: `info`
    /// shows the license all the same, says the publication cannot be read now, and asks the
    /// silent host once — its next requests fail at once instead of each waiting out a timeout.
    @Test func infoOnALicenseWhosePublicationNeverAnswers() throws {
        let served = try ServedPublication.make(on: server, serve: ["mode": "hang"])
        try server.clearLog()
        let info = try run(["info", served.lcplPath])
        #expect(info.status == 2, "\(info.stderr)")
        #expect(info.stdout.contains("Publication:  cannot be read now"), "\(info.stdout)")
        #expect(info.stdout.contains("License:      \(served.license.id)"), "\(info.stdout)")
        #expect(info.stderr.contains("did not answer"), "\(info.stderr)")
        let log = try server.log()
        #expect(log.filter { $0.path.hasPrefix("/files/") }.count == 1, "\(log)")
        let json = try run(["info", "--json", served.lcplPath])
        #expect((json.json as? [String: Any])?["license"] is [String: Any], "\(json.stdout)")
    }
}

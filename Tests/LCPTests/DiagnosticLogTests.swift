import Foundation
import Testing
import TestSupport

/// The diagnostic log (`LECTERN_LOG`): a License Status Document that cannot be had leaves a
/// trace a person can read, with no secret in it; without the variable nothing is written.
@Suite struct DiagnosticLogTests {
    let lectern = LecternProcess()
    let environment = ["LECTERN_LCP_ANCHORS": TestPKI.shared.directory + "/ca/ca.pem", "LECTERN_LCP_CRL_URL": "none"]

    /// A protected book whose status server does not answer (a closed loopback port).
    func bookWithASilentStatusServer() throws -> String {
        var spec = LicenseSpec()
        spec.statusURL = "http://127.0.0.1:9/licenses/\(spec.id)/status?token=SECRET-TOKEN"
        let license = try LicenseForge.make(spec)
        let path = Fixtures.temporaryDirectory("lcp-log") + "/book.epub"
        try PackageForge.epub(at: path, license: license, resources: [
            ForgedResource("OEBPS/chapter1.xhtml", PackageForge.text(500), mediaType: "application/xhtml+xml"),
        ])
        return path
    }

    @Test func aMissingStatusDocumentIsLoggedWithoutSecrets() throws {
        let path = try bookWithASilentStatusServer()
        let logged = try lectern.run(["check", "--passphrase", "open sesame", path],
                                     environment: environment.merging(["LECTERN_LOG": "debug"]) { $1 })
        #expect(logged.status == 0, "\(logged.stderr)")
        #expect(logged.stderr.contains("going on without the License Status Document"), "\(logged.stderr)")
        #expect(logged.stderr.contains("lectern.http"), "\(logged.stderr)")
        #expect(logged.stderr.contains("127.0.0.1:9/licenses/"), "\(logged.stderr)")
        for secret in ["open sesame", "SECRET-TOKEN"] {
            #expect(!logged.stderr.contains(secret), "\(secret) reached the log")
        }

        let quiet = try lectern.run(["check", "--passphrase", "open sesame", path], environment: environment)
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(!quiet.stderr.contains("going on without"), "\(quiet.stderr)")
        #expect(!quiet.stderr.contains("lectern.http"), "\(quiet.stderr)")
    }
}

import Foundation
import LCP
import LibZip
import Shared
import Testing
import TestSupport

/// The License Status flow against a real server on 127.0.0.1 (Tests/Servers/
/// lcp_status_server.py): device registration, statuses that lock the book, updated licenses
/// written back into the package, and servers that fail in every way without stopping the
/// opening.
@Suite struct StatusFlowTests {
    let server: StatusServer

    init() throws {
        server = try StatusServer()
    }

    /// A book whose license points to the test server, with the server's state for it.
    func book(_ configure: (inout LicenseSpec) -> Void = { _ in }, state: [String: Any] = [:],
              ext: String = "epub") throws -> (path: String, license: ForgedLicense) {
        var spec = LicenseSpec()
        spec.statusURL = server.statusURL(spec.id)
        configure(&spec)
        let license = try LicenseForge.make(spec)
        let path = Fixtures.temporaryDirectory("lcp-status") + "/book." + ext
        let chapter = ForgedResource(ext == "epub" ? "OEBPS/chapter1.xhtml" : "publication.pdf",
                                     PackageForge.text(3000), mediaType: ext == "epub" ? "application/xhtml+xml" : "application/pdf")
        if ext == "epub" {
            try PackageForge.epub(at: path, license: license, resources: [chapter])
        } else {
            try PackageForge.readiumPackage(at: path, license: license, conformsTo: "https://readium.org/webpub-manifest/profiles/pdf",
                                            readingOrder: [chapter])
        }
        try server.configure(spec.id, state)
        return (path, license)
    }

    /// The same license, re-issued by the provider with changes.
    func reissued(_ license: ForgedLicense, _ change: (inout LicenseSpec) -> Void) throws -> ForgedLicense {
        var spec = license.spec
        change(&spec)
        return try LicenseForge.make(spec, contentKey: license.contentKey)
    }

    func statusError(_ license: LCPLicense) -> LCPStatusError? {
        if case .status(let error)? = license.error { return error }
        return nil
    }

    @Test func deviceIsRegisteredOnceAndTheStatusBecomesActive() async throws {
        let (path, forged) = try book()
        let lcp = try TestLCP()
        let license = try await lcp.retrieveLicense(path, credentials: "open sesame").get()
        #expect(license.error == nil)
        #expect(license.status?.status == .active)
        #expect(try server.counter("register", forged.id) == 1)
        let devices = try #require(try server.state(forged.id)["devices"] as? [[String: String]])
        #expect(devices.count == 1)
        #expect(devices.first?["name"] == "Lectern (Linux)")
        #expect(devices.first?["id"] == (try lcp.licenses.deviceID(provider: forged.spec.provider)))
        #expect(try lcp.licenses.isDeviceRegistered(licenseID: forged.id))

        // The next opening does not register again, though the server still offers it.
        let again = try await lcp.retrieveLicense(path).get()
        #expect(again.error == nil)
        #expect(again.status?.link(LicenseRel.register) != nil)
        #expect(try server.counter("register", forged.id) == 1)
        #expect(try server.counter("status", forged.id) == 2)
    }

    @Test func aFailedRegistrationDoesNotBlockAndIsRetriedNextTime() async throws {
        let (path, forged) = try book(state: ["register_http": 500])
        let lcp = try TestLCP()
        let license = try await lcp.retrieveLicense(path, credentials: "open sesame").get()
        #expect(license.error == nil)
        #expect(license.status?.status == .ready)
        #expect(try !lcp.licenses.isDeviceRegistered(licenseID: forged.id))

        try server.configure(forged.id, ["register_http": 200])
        #expect(try await lcp.retrieveLicense(path).get().status?.status == .active)
        #expect(try lcp.licenses.isDeviceRegistered(licenseID: forged.id))
        #expect(try server.counter("register", forged.id) == 2)
    }

    @Test func registerThroughTheOlderInterface() async throws {
        let (path, forged) = try book(state: ["register_http": 500])
        let lcp = try TestLCP()
        let license = try await lcp.retrieveLicense(path, credentials: "open sesame").get()
        try server.configure(forged.id, ["register_http": 200])
        try await license.register()
        #expect(license.currentStatus == "active")
        #expect(try lcp.licenses.isDeviceRegistered(licenseID: forged.id))
    }

    static let events: [[String: String]] = [
        ["type": "register", "name": "Phone", "id": "d1", "timestamp": "2026-02-01T00:00:00Z"],
        ["type": "register", "name": "Tablet", "id": "d2", "timestamp": "2026-02-02T00:00:00Z"],
    ]

    /// The server announces a newer license it will not give (the reference server's private
    /// license API answers 401): its status then takes precedence.
    @Test(arguments: ["revoked", "returned", "cancelled", "expired"])
    func lockingStatusesTakePrecedenceWhenTheNewLicenseCannotBeFetched(_ status: String) async throws {
        let (path, forged) = try book(state: ["status": status, "updated_license": "2026-03-01T00:00:00Z",
                                              "updated_status": "2026-03-02T10:20:00Z", "license_http": 401, "events": Self.events])
        let license = try await TestLCP().retrieveLicense(path, credentials: "open sesame").get()
        let date = RFC3339Date.parse("2026-03-02T10:20:00Z")
        switch status {
        case "revoked":
            #expect(statusError(license) == .revoked(date, devices: 2))
            #expect(license.error?.userMessage
                == "This license was revoked by its provider on 2026-03-02 10:20 UTC. It was registered by 2 devices.")
        case "returned":
            #expect(statusError(license) == .returned(date))
            #expect(license.error?.userMessage == "This book was returned on 2026-03-02 10:20 UTC.")
        case "cancelled":
            #expect(statusError(license) == .cancelled(date))
            #expect(license.error?.userMessage == "This license was cancelled on 2026-03-02 10:20 UTC.")
        default:
            #expect(statusError(license) == .expired(date))
            #expect(license.error?.userMessage == "This loan expired on 2026-03-02 10:20 UTC.")
        }
        #expect(try server.counter("license", forged.id) == 1)
        // Locked, but the license and its status stay available.
        #expect(license.isLocked)
        #expect(license.status?.status.rawValue == status)
        #expect(license.charactersToCopyLeft == 0)
    }

    /// Without a newer license announced, the license takes precedence (LSD §3.2).
    @Test func theLicenseWinsOverAStatusWithoutNewerLicense() async throws {
        let (path, _) = try book(state: ["status": "revoked"])
        let license = try await TestLCP().retrieveLicense(path, credentials: "open sesame").get()
        #expect(license.error == nil)
        #expect(license.status?.status == .revoked)
    }

    @Test func anExpiredLoanWithAnActiveStatusIsExpired() async throws {
        let (path, _) = try book({ $0.rights = JSONObject(["start": .string("2025-01-01T00:00:00Z"), "end": .string("2026-02-01T00:00:00Z")]) },
                                 state: ["status": "active"])
        let license = try await TestLCP().retrieveLicense(path, credentials: "open sesame").get()
        #expect(statusError(license) == .expired(RFC3339Date.parse("2026-02-01T00:00:00Z")))
        #expect(license.error?.userMessage == "This loan expired on 2026-02-01 00:00 UTC.")
        #expect(!license.areRightsValid)
        #expect(license.currentStatus == "active")
    }

    @Test func aLoanThatHasNotStartedSaysWhenItStarts() async throws {
        let (path, _) = try book({ $0.rights = JSONObject(["start": .string("2099-01-01T00:00:00Z")]) })
        let license = try await TestLCP().retrieveLicense(path, credentials: "open sesame").get()
        #expect(statusError(license) == .notStarted(RFC3339Date.parse("2099-01-01T00:00:00Z")!))
        #expect(license.error?.userMessage == "This loan starts on 2099-01-01 00:00 UTC.")
    }

    /// A returned book: the server serves the updated license (end = return date); the book is
    /// locked and the package holds the new license.
    @Test func anUpdatedLicenseIsFetchedValidatedAndWrittenBack() async throws {
        let (path, forged) = try book({ $0.rights = JSONObject(["copy": .int(50), "end": .string("2030-01-01T00:00:00Z")]) })
        let lcp = try TestLCP()
        // Consume some rights first: the updated license must not restore them.
        #expect(try await lcp.retrieveLicense(path, credentials: "open sesame").get().copy(text: "0123456789").isGranted)
        let returned = try reissued(forged) {
            $0.updated = "2026-03-01T00:00:00Z"
            $0.rights = JSONObject(["copy": .int(50), "end": .string("2026-03-01T00:00:00Z")])
        }
        try server.configure(forged.id, ["status": "returned", "updated_license": "2026-03-01T00:00:00Z",
                                         "updated_status": "2026-03-01T00:00:00Z", "license": returned.text])
        let entriesBefore = try entries(of: path)
        let license = try await lcp.retrieveLicense(path).get()
        #expect(license.license.updated.map(RFC3339Date.string) == "2026-03-01T00:00:00Z")
        #expect(statusError(license) == .returned(RFC3339Date.parse("2026-03-01T00:00:00Z")))
        #expect(try lcp.licenses.allowance(licenseID: forged.id)?.copy == .left(40))
        #expect(try lcp.licenses.licenseData(id: forged.id) == returned.data)

        // Written back: the new license in place, everything else byte for byte, mimetype first
        // and stored.
        let entriesAfter = try entries(of: path)
        #expect(entriesAfter.first?.name == "mimetype")
        #expect(entriesAfter.first?.stored == true)
        #expect(entriesAfter.map(\.name) == entriesBefore.map(\.name))
        for (before, after) in zip(entriesBefore, entriesAfter) where before.name != "META-INF/license.lcpl" {
            #expect(before.data == after.data, "\(before.name)")
        }
        #expect(entriesAfter.first { $0.name == "META-INF/license.lcpl" }?.data == returned.data)
        // The next opening reads the new license and does not download it again.
        _ = try await lcp.retrieveLicense(path).get()
        #expect(try server.counter("license", forged.id) == 1)
    }

    @Test func aRenewedLicenseOpensAndIsWrittenIntoAnLCPDF() async throws {
        let (path, forged) = try book({ $0.rights = JSONObject(["end": .string("2026-02-01T00:00:00Z")]) }, ext: "lcpdf")
        let renewed = try reissued(forged) {
            $0.updated = "2026-04-01T00:00:00Z"
            $0.rights = JSONObject(["end": .string("2099-01-01T00:00:00Z")])
        }
        try server.configure(forged.id, ["status": "active", "updated_license": "2026-04-01T00:00:00Z", "license": renewed.text])
        let publication = try await TestLCP().open(path, credentials: "open sesame")
        defer { publication.close() }
        #expect(!publication.isRestricted)
        #expect(publication.lcpLicense?.rightsEnd.map(RFC3339Date.string) == "2099-01-01T00:00:00Z")
        #expect(try publication.read("publication.pdf") == PackageForge.text(3000))
        #expect(try entries(of: path).first { $0.name == "license.lcpl" }?.data == renewed.data)
    }

    @Test func aLicenseForAnotherIDIsIgnored() async throws {
        let (path, forged) = try book()
        var spec = LicenseSpec()
        spec.updated = "2026-04-01T00:00:00Z"
        let stranger = try LicenseForge.make(spec)
        try server.configure(forged.id, ["status": "active", "updated_license": "2026-04-01T00:00:00Z", "license": stranger.text])
        let license = try await TestLCP().retrieveLicense(path, credentials: "open sesame").get()
        #expect(license.error == nil)
        #expect(license.license.id == forged.id)
        #expect(try entries(of: path).first { $0.name == "META-INF/license.lcpl" }?.data == forged.data)
    }

    /// A license from the server that does not verify is not stored nor written: the status
    /// then takes precedence.
    @Test func aForgedUpdatedLicenseReplacesNothing() async throws {
        let (path, forged) = try book()
        let fake = try reissued(forged) {
            $0.updated = "2026-04-01T00:00:00Z"
            $0.rights = JSONObject(["copy": .int(1_000_000)])
        }
        let tampered = fake.tampered { $0.replacingOccurrences(of: "The usual one", with: "The usual 0ne") }
        try server.configure(forged.id, ["status": "active", "updated_license": "2026-04-01T00:00:00Z",
                                         "license": String(decoding: tampered, as: UTF8.self)])
        let lcp = try TestLCP()
        let license = try await lcp.retrieveLicense(path, credentials: "open sesame").get()
        #expect(license.error == nil)
        #expect(license.license.data == forged.data)
        #expect(try lcp.licenses.licenseData(id: forged.id) == forged.data)
        #expect(try entries(of: path).first { $0.name == "META-INF/license.lcpl" }?.data == forged.data)
        #expect(license.charactersToCopyLeft == 100)
    }

    /// A server that accepts the connection and never answers: the opening goes on after the
    /// status timeout, without the status.
    @Test func aSilentServerOnlyDelaysOpeningByTheTimeout() async throws {
        let (path, forged) = try book(state: ["mode": "hang"])
        let publication = try await TestLCP(statusTimeout: 1).open(path, credentials: "open sesame")
        defer { publication.close() }
        #expect(!publication.isRestricted)
        #expect(publication.lcpLicense?.status == nil)
        #expect(try publication.read("OEBPS/chapter1.xhtml") == PackageForge.text(3000))
        #expect(try server.counter("status", forged.id) == 1)
    }

    @Test(arguments: ["html", "404", "500"])
    func garbageOrErrorAnswersAreIgnored(_ mode: String) async throws {
        let (path, _) = try book(state: ["mode": mode])
        let license = try await TestLCP().retrieveLicense(path, credentials: "open sesame").get()
        #expect(license.error == nil)
        #expect(license.status == nil)
    }

    @Test func anUnreachableServerIsIgnored() async throws {
        let (path, _) = try book { $0.statusURL = "http://127.0.0.1:9/licenses/x/status" }
        let license = try await TestLCP().retrieveLicense(path, credentials: "open sesame").get()
        #expect(license.error == nil)
        #expect(license.status == nil)
    }

    struct Entry { let name: String; let stored: Bool; let data: Data }

    func entries(of path: String) throws -> [Entry] {
        let archive = try ZipArchive(path: path)
        defer { archive.close() }
        return try archive.entries.map { Entry(name: $0.path, stored: $0.isStored, data: try archive.read($0)) }
    }
}

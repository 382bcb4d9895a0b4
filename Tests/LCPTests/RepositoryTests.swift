import Foundation
import LCP
import LCPSQLite
import LibSQLite
import Shared
import Testing
import TestSupport

/// The SQLite repositories: file, schema, rights counters, device identity.
@Suite struct RepositoryTests {
    let directory = Fixtures.temporaryDirectory("lcp-repo")
    var path: String { directory + "/data/lectern/library.sqlite" }

    func license(copy: Int? = 100, print: Int? = 10, id: String = UUID().uuidString) throws -> LicenseDocument {
        var spec = LicenseSpec()
        spec.id = id
        var rights = JSONObject()
        rights.set("copy", copy.map(JSONValue.int))
        rights.set("print", print.map(JSONValue.int))
        spec.rights = rights
        return try LicenseDocument(data: try LicenseForge.make(spec).data)
    }

    @Test func databaseIsPrivateInWALWithPrefixedVersionedTables() throws {
        let store = try LCPSQLiteStore(path: path)
        try LCPSQLiteLicenseRepository(store: store).addLicense(try license(), publicationPath: "/books/a.epub")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let directoryMode = try FileManager.default.attributesOfItem(atPath: directory + "/data/lectern")[.posixPermissions] as? NSNumber
        #expect(directoryMode?.intValue == 0o700)
        let database = try SQLiteDatabase(path: path)
        #expect(try database.query("PRAGMA journal_mode").first?.string(0) == "wal")
        let tables = try database.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").compactMap { $0.string(0) }
        #expect(tables == ["lcp_crl", "lcp_crl_attempts", "lcp_device", "lcp_licenses", "lcp_schema", "lcp_user_keys", "lectern_migrations"])
        #expect(try database.query("SELECT version FROM lcp_schema").first?.int(0) == 3)
        // LCP leaves PRAGMA user_version to the bookshelf sharing the file.
        #expect(database.userVersion == 0)
    }

    @Test func reopeningKeepsTheDataAndANewerSchemaIsRefused() throws {
        let first = try license()
        do {
            let store = try LCPSQLiteStore(path: path)
            try LCPSQLiteLicenseRepository(store: store).addLicense(first, publicationPath: nil)
        }
        let reopened = LCPSQLiteLicenseRepository(store: try LCPSQLiteStore(path: path))
        #expect(try reopened.licenseData(id: first.id) == first.data)
        try SQLiteDatabase(path: path).run("UPDATE lcp_schema SET version = 99")
        #expect(throws: LCPError.self) { try LCPSQLiteStore(path: path) }
    }

    @Test func rightsAreSeededOnceAndConsumedAllOrNothing() throws {
        let repository = LCPSQLiteLicenseRepository(store: try LCPSQLiteStore(path: path))
        let document = try license(copy: 100, print: 3)
        try repository.addLicense(document, publicationPath: nil)
        #expect(try repository.allowance(licenseID: document.id) == RightsAllowance(copy: .left(100), print: .left(3)))
        #expect(try repository.consume(.copy, amount: 60, licenseID: document.id))
        #expect(try !repository.consume(.copy, amount: 41, licenseID: document.id))
        #expect(try repository.consume(.copy, amount: 40, licenseID: document.id))
        #expect(try !repository.consume(.copy, amount: 1, licenseID: document.id))
        #expect(try repository.consume(.copy, amount: 0, licenseID: document.id))
        #expect(try !repository.consume(.print, amount: -1, licenseID: document.id))
        #expect(try repository.consume(.print, amount: 3, licenseID: document.id))
        // Storing the license again (a renewal) does not restore the rights.
        try repository.addLicense(document, publicationPath: "/elsewhere.epub")
        #expect(try repository.allowance(licenseID: document.id) == RightsAllowance(copy: .left(0), print: .left(0)))
        #expect(try !repository.consume(.copy, amount: 1, licenseID: "unknown"))
    }

    @Test func unlimitedRightsAreNeverExhausted() throws {
        let repository = LCPSQLiteLicenseRepository(store: try LCPSQLiteStore(path: path))
        let document = try license(copy: nil, print: nil)
        try repository.addLicense(document, publicationPath: nil)
        #expect(try repository.allowance(licenseID: document.id) == RightsAllowance(copy: .unlimited, print: .unlimited))
        #expect(try repository.consume(.copy, amount: 1_000_000, licenseID: document.id))
        #expect(try repository.consume(.print, amount: 1_000_000, licenseID: document.id))
        // A negative quota is no right at all, not an unlimited one.
        let negative = try license(copy: -100, print: -5)
        try repository.addLicense(negative, publicationPath: nil)
        #expect(try repository.allowance(licenseID: negative.id) == RightsAllowance(copy: .left(0), print: .left(0)))
        #expect(try !repository.consume(.print, amount: 1, licenseID: negative.id))
    }

    @Test func deviceIdentityIsStablePerProviderAndRegistrationIsRemembered() throws {
        let store = try LCPSQLiteStore(path: path)
        let repository = LCPSQLiteLicenseRepository(store: store)
        let id = try repository.deviceID(provider: "https://a.example")
        #expect(UUID(uuidString: id) != nil)
        #expect(try repository.deviceID(provider: "https://a.example") == id)
        #expect(try repository.deviceID(provider: "https://b.example") != id)
        #expect(try LCPSQLiteLicenseRepository(store: try LCPSQLiteStore(path: path)).deviceID(provider: "https://a.example") == id)
        let document = try license()
        try repository.addLicense(document, publicationPath: nil)
        #expect(try !repository.isDeviceRegistered(licenseID: document.id))
        try repository.registerDevice(licenseID: document.id)
        #expect(try repository.isDeviceRegistered(licenseID: document.id))
    }

    @Test func passphrasesAreFoundByLicenseProviderAndRecency() throws {
        let repository = LCPSQLitePassphraseRepository(store: try LCPSQLiteStore(path: path))
        try repository.addPassphrase(String(repeating: "A", count: 64), licenseID: "l1", provider: "p", userID: "u")
        try repository.addPassphrase(String(repeating: "b", count: 64), licenseID: "l2", provider: "p", userID: nil)
        try repository.addPassphrase(String(repeating: "a", count: 64), licenseID: "l1", provider: "p", userID: "u")
        #expect(try repository.passphrases(licenseID: "l1") == [String(repeating: "a", count: 64)])
        #expect(try repository.passphrases(provider: "p", userID: "u") == [String(repeating: "a", count: 64)])
        #expect(try repository.passphrases(provider: "p", userID: nil) == [String(repeating: "b", count: 64)])
        #expect(try Set(repository.allPassphrases(limit: 10)) == [String(repeating: "a", count: 64), String(repeating: "b", count: 64)])
        #expect(try repository.allPassphrases(limit: 1).count == 1)
    }

    /// Copy is counted in `Character`s (grapheme clusters), print in pages; a restricted
    /// license grants nothing; peeking consumes nothing.
    @Test func licenseRightsCountCharactersAndPages() async throws {
        var spec = LicenseSpec()
        spec.rights = JSONObject(["copy": .int(10), "print": .int(2)])
        let forged = try LicenseForge.make(spec)
        let path = directory + "/book.epub"
        try PackageForge.epub(at: path, license: forged, resources: [
            ForgedResource("OEBPS/chapter1.xhtml", PackageForge.text(2000), mediaType: "application/xhtml+xml"),
        ])
        let lcp = try TestLCP(directory: directory)
        let publication = try await lcp.open(path, credentials: "open sesame")
        defer { publication.close() }
        let rights = publication.rights
        let license = try #require(publication.lcpLicense)
        #expect(license.charactersToCopyLeft == 10)
        #expect(await rights.canCopy(text: "0123456789"))
        #expect(await !rights.canCopy(text: "0123456789a"))
        #expect(license.charactersToCopyLeft == 10)
        // "é" as e + combining acute, a family emoji joined with ZWJ, "a\nb": 1 + 1 + 3.
        #expect(await rights.copy(text: "e\u{301}").isGranted)
        #expect(await rights.copy(text: "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}").isGranted)
        #expect(await rights.copy(text: "a\nb").isGranted)
        #expect(license.charactersToCopyLeft == 5)
        #expect(await !rights.copy(text: "123456").isGranted)
        #expect(license.charactersToCopyLeft == 5)
        #expect(await rights.copy(text: "12345").isGranted)
        #expect(await !rights.canCopy)
        #expect(await rights.print(pages: 2).isGranted)
        #expect(await !rights.print(pages: 1).isGranted)
        #expect(license.pagesToPrintLeft == 0)
        // Printing never touched the copy counter, and copying never the print one.
        #expect(try lcp.licenses.allowance(licenseID: forged.id) == RightsAllowance(copy: .left(0), print: .left(0)))
    }
}

/// Rights that cannot be counted fail closed and say why, instead of showing the full grant
/// and then refusing every copy as if nothing were left.
@Suite struct UncountableRightsTests {
    @Test func aLicenseMissingFromTheDatabaseGrantsNothingAndSaysWhy() async throws {
        let directory = Fixtures.temporaryDirectory("lcp-uncountable")
        var spec = LicenseSpec()
        spec.rights = JSONObject(["copy": .int(10), "print": .int(2)])
        let forged = try LicenseForge.make(spec)
        let path = directory + "/book.epub"
        try PackageForge.epub(at: path, license: forged, resources: [
            ForgedResource("OEBPS/chapter1.xhtml", PackageForge.text(2000), mediaType: "application/xhtml+xml"),
        ])
        let lcp = try TestLCP(directory: directory)
        let publication = try await lcp.open(path, credentials: "open sesame")
        defer { publication.close() }
        let license = try #require(publication.lcpLicense)
        #expect(license.charactersToCopyLeft == 10)
        #expect(license.rightsProblem == nil)

        // The row goes (another process, a damaged database): the counters are gone.
        let other = try SQLiteDatabase(path: directory + "/library.sqlite")
        #expect(try other.run("DELETE FROM lcp_licenses WHERE license_id = ?", [.text(forged.id)]) == 1)
        #expect(license.charactersToCopyLeft == 0)
        #expect(license.pagesToPrintLeft == 0)
        #expect(await !publication.rights.canCopy)
        #expect(await !publication.rights.copy(text: "a").isGranted)
        #expect(await !publication.rights.print(pages: 1).isGranted)
        let problem = try #require(license.rightsProblem)
        #expect(problem.userMessage.contains("not recorded in the library database"), "\(problem.userMessage)")
    }
}

import Foundation
import LCP
@testable import LCPSQLite
import LibSQLite
import Testing
import TestSupport

/// Schema migrations of the LCP tables, the CRL cache and importing user keys.
@Suite struct RepositoryMigrationTests {
    let path = Fixtures.temporaryDirectory("lcp-migrate") + "/library.sqlite"

    /// A database made by the first version of the schema keeps its data and gains the new
    /// tables and index.
    @Test func aFirstVersionDatabaseIsMigrated() throws {
        do {
            let database = try SQLiteDatabase(path: path)
            try database.execute("CREATE TABLE lcp_schema (version INTEGER NOT NULL)")
            try database.execute(LCPSQLiteSchema.migrations[0])
            try database.run("INSERT INTO lcp_schema (version) VALUES (1)")
            try database.run("""
                INSERT INTO lcp_user_keys (license_id, provider, user_id, user_key_hex, created_at, last_used_at)
                VALUES ('old', 'p', NULL, ?, '2020-01-01T00:00:00Z', '2020-01-01T00:00:00Z')
                """, [.text(String(repeating: "ab", count: 32))])
        }
        let store = try LCPSQLiteStore(path: path)
        #expect(try LCPSQLitePassphraseRepository(store: store).passphrases(licenseID: "old") == [String(repeating: "ab", count: 32)])
        let database = try SQLiteDatabase(path: path)
        #expect(try database.query("SELECT version FROM lcp_schema").first?.int(0) == LCPSQLiteSchema.migrations.count)
        #expect(try !database.query("SELECT name FROM sqlite_master WHERE name = 'lcp_user_keys_last_used'").isEmpty)
        #expect(try !database.query("SELECT name FROM sqlite_master WHERE name = 'lcp_crl_attempts'").isEmpty)
    }

    @Test func importedKeysAreTriedMostRecentlyUsedFirstAndOnce() throws {
        let repository = LCPSQLitePassphraseRepository(store: try LCPSQLiteStore(path: path))
        let key = { (digit: String) in String(repeating: digit, count: 64) }
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        try repository.addPassphrases([
            LCPStoredPassphrase(hashedPassphrase: key("a"), licenseID: "l1", provider: "p", userID: nil, lastUsedAt: base),
            LCPStoredPassphrase(hashedPassphrase: key("b"), licenseID: "l2", provider: "p", userID: "u", lastUsedAt: base + 100),
            LCPStoredPassphrase(hashedPassphrase: key("A"), licenseID: "l3", provider: "q", userID: nil, lastUsedAt: base + 50),
            LCPStoredPassphrase(hashedPassphrase: key("c"), licenseID: "l4", provider: "q", userID: nil, lastUsedAt: base - 10),
        ])
        // "A…" is the same key as "a…" (stored lower-case), last used at base + 50.
        #expect(try repository.allPassphrases(limit: 10) == [key("b"), key("a"), key("c")])
        #expect(try repository.allPassphrases(limit: 1) == [key("b")])
        #expect(try repository.passphrases(provider: "p", userID: "u") == [key("b")])
    }

    @Test func theCRLCacheKeepsOneCRLPerURLAndForgetsFailuresOnSuccess() throws {
        let repository = LCPSQLiteCRLRepository(store: try LCPSQLiteStore(path: path))
        let url = "http://127.0.0.1/ca.crl"
        #expect(try repository.crl(url: url) == nil)
        let failedAt = Date(timeIntervalSince1970: 1_800_000_000)
        try repository.recordFailedAttempt(url: url, at: failedAt, reason: "offline")
        #expect(try repository.lastFailedAttempt(url: url) == failedAt)
        let crl = LCPCachedCRL(url: url, der: Data([1, 2, 3]), thisUpdate: failedAt - 86_400, nextUpdate: failedAt + 86_400,
                               retrievedAt: failedAt + 60)
        try repository.storeCRL(crl)
        #expect(try repository.crl(url: url) == crl)
        #expect(try repository.lastFailedAttempt(url: url) == nil)
        let newer = LCPCachedCRL(url: url, der: Data([4]), thisUpdate: failedAt, nextUpdate: nil, retrievedAt: failedAt + 120)
        try repository.storeCRL(newer)
        #expect(try repository.crl(url: url) == newer)
    }
}

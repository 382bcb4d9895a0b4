import Shared
import FoundationEssentials
import LCP
import LibSQLite

/// ``LCPPassphraseRepository`` on the library database: user keys (SHA-256 of passphrases,
/// lower-case hexadecimal) with the license id, provider and user id they opened.
public final class LCPSQLitePassphraseRepository: LCPPassphraseRepository {
    private let store: LCPSQLiteStore

    public init(store: LCPSQLiteStore) {
        self.store = store
    }

    public func passphrases(licenseID: String) throws(LCPError) -> [String] {
        try keys("SELECT user_key_hex FROM lcp_user_keys WHERE license_id = ? ORDER BY last_used_at DESC", [.text(licenseID)])
    }

    public func passphrases(provider: String, userID: String?) throws(LCPError) -> [String] {
        try keys("""
            SELECT user_key_hex FROM lcp_user_keys WHERE provider = ? AND user_id IS ?
            GROUP BY user_key_hex ORDER BY MAX(last_used_at) DESC
            """, [.text(provider), .text(userID)])
    }

    public func allPassphrases(limit: Int) throws(LCPError) -> [String] {
        // Walks the last-used index (no sort); a key stored for several licenses comes once, at
        // its most recent use.
        var seen = Set<String>()
        return try keys("SELECT user_key_hex FROM lcp_user_keys ORDER BY last_used_at DESC LIMIT ?", [.integer(limit)])
            .filter { seen.insert($0).inserted }
    }

    public func addPassphrase(_ hashedPassphrase: String, licenseID: String, provider: String, userID: String?) throws(LCPError) {
        let now = LCPSQLiteStore.now()
        try store.withDatabase { database throws(SQLiteError) in
            try database.run("""
                INSERT INTO lcp_user_keys (license_id, provider, user_id, user_key_hex, created_at, last_used_at)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (license_id, user_key_hex) DO UPDATE SET last_used_at = excluded.last_used_at,
                    provider = excluded.provider, user_id = excluded.user_id
                """, [.text(licenseID), .text(provider), .text(userID), .text(hashedPassphrase.lowercased()), .text(now), .text(now)])
        }
    }

    /// Stores many user keys in one transaction, with the dates they were last used (an
    /// import from a backup or another reader).
    public func addPassphrases(_ entries: [LCPStoredPassphrase]) throws(LCPError) {
        try store.transaction { database throws(SQLiteError) in
            for entry in entries {
                let used = RFC3339Date.string(entry.lastUsedAt)
                try database.run("""
                    INSERT INTO lcp_user_keys (license_id, provider, user_id, user_key_hex, created_at, last_used_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (license_id, user_key_hex) DO UPDATE SET last_used_at = excluded.last_used_at
                    """, [.text(entry.licenseID), .text(entry.provider), .text(entry.userID),
                          .text(entry.hashedPassphrase.lowercased()), .text(used), .text(used)])
            }
        }
    }

    private func keys(_ sql: String, _ values: [SQLiteValue]) throws(LCPError) -> [String] {
        try store.withDatabase { database throws(SQLiteError) in
            try database.query(sql, values).compactMap { $0.string(0) }
        }
    }
}

/// A user key to import, with what it opened and when it was last used.
public struct LCPStoredPassphrase: Sendable, Hashable {
    public var hashedPassphrase: String
    public var licenseID: String
    public var provider: String
    public var userID: String?
    public var lastUsedAt: Date

    public init(hashedPassphrase: String, licenseID: String, provider: String, userID: String?, lastUsedAt: Date) {
        self.hashedPassphrase = hashedPassphrase
        self.licenseID = licenseID
        self.provider = provider
        self.userID = userID
        self.lastUsedAt = lastUsedAt
    }
}

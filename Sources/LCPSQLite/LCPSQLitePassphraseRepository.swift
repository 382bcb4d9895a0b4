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
        try keys("SELECT user_key_hex FROM lcp_user_keys GROUP BY user_key_hex ORDER BY MAX(last_used_at) DESC LIMIT ?",
                 [.integer(limit)])
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

    private func keys(_ sql: String, _ values: [SQLiteValue]) throws(LCPError) -> [String] {
        try store.withDatabase { database throws(SQLiteError) in
            try database.query(sql, values).compactMap { $0.string(0) }
        }
    }
}

import Shared
import FoundationEssentials
import LCP
import LibSQLite

/// ``LCPCRLRepository`` on the library database: `lcp_crl` (one checked CRL per URL, with its
/// dates) and `lcp_crl_attempts` (the last failed download of each URL).
public final class LCPSQLiteCRLRepository: LCPCRLRepository {
    private let store: LCPSQLiteStore

    public init(store: LCPSQLiteStore) {
        self.store = store
    }

    public func crl(url: String) throws(LCPError) -> LCPCachedCRL? {
        try store.withDatabase { database throws(SQLiteError) in
            guard let row = try database.query("""
                SELECT der, this_update, next_update, retrieved_at FROM lcp_crl WHERE url = ?
                """, [.text(url)]).first, let der = row.data(0) else { return nil }
            return LCPCachedCRL(url: url, der: der, thisUpdate: row.string(1).flatMap(RFC3339Date.parse),
                                nextUpdate: row.string(2).flatMap(RFC3339Date.parse),
                                retrievedAt: row.string(3).flatMap(RFC3339Date.parse) ?? Date(timeIntervalSince1970: 0))
        }
    }

    public func storeCRL(_ crl: LCPCachedCRL) throws(LCPError) {
        try store.transaction { database throws(SQLiteError) in
            try database.run("""
                INSERT INTO lcp_crl (url, der, this_update, next_update, retrieved_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (url) DO UPDATE SET der = excluded.der, this_update = excluded.this_update,
                    next_update = excluded.next_update, retrieved_at = excluded.retrieved_at
                """, [.text(crl.url), .blob(crl.der), .text(crl.thisUpdate.map(RFC3339Date.string)),
                      .text(crl.nextUpdate.map(RFC3339Date.string)), .text(RFC3339Date.string(crl.retrievedAt))])
            try database.run("DELETE FROM lcp_crl_attempts WHERE url = ?", [.text(crl.url)])
        }
    }

    public func lastFailedAttempt(url: String) throws(LCPError) -> Date? {
        try store.withDatabase { database throws(SQLiteError) in
            try database.query("SELECT attempted_at FROM lcp_crl_attempts WHERE url = ?", [.text(url)])
                .first?.string(0).flatMap(RFC3339Date.parse)
        }
    }

    public func recordFailedAttempt(url: String, at date: Date, reason: String) throws(LCPError) {
        try store.withDatabase { database throws(SQLiteError) in
            try database.run("""
                INSERT INTO lcp_crl_attempts (url, attempted_at, reason) VALUES (?, ?, ?)
                ON CONFLICT (url) DO UPDATE SET attempted_at = excluded.attempted_at, reason = excluded.reason
                """, [.text(url), .text(RFC3339Date.string(date)), .text(reason)])
        }
    }
}

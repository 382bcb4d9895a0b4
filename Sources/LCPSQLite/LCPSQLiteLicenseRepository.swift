import Shared
import FoundationEssentials
import LCP
import LibSQLite

/// ``LCPLicenseRepository`` on the library database.
public final class LCPSQLiteLicenseRepository: LCPLicenseRepository {
    private let store: LCPSQLiteStore

    public init(store: LCPSQLiteStore) {
        self.store = store
    }

    public func addLicense(_ license: LicenseDocument, publicationPath: String?) throws(LCPError) {
        let now = LCPSQLiteStore.now()
        try store.transaction { database throws(SQLiteError) in
            let exists = try !database.query("SELECT 1 FROM lcp_licenses WHERE license_id = ?", [.text(license.id)]).isEmpty
            let dates: [SQLiteValue] = [
                .text(RFC3339Date.string(license.issued)), .text(license.updated.map(RFC3339Date.string)),
                .text(license.rights.start.map(RFC3339Date.string)), .text(license.rights.end.map(RFC3339Date.string)),
            ]
            if exists {
                // The counters stay as they are: a renewed license must not restore rights.
                try database.run("""
                    UPDATE lcp_licenses SET provider = ?, user_id = ?, license_json = ?, issued = ?, updated = ?,
                        rights_start = ?, rights_end = ?, publication_path = COALESCE(?, publication_path), updated_at = ?
                    WHERE license_id = ?
                    """, [.text(license.provider), .text(license.user.id), .blob(license.data)] + dates
                        + [.text(publicationPath), .text(now), .text(license.id)])
            } else {
                try database.run("""
                    INSERT INTO lcp_licenses (license_id, provider, user_id, license_json, issued, updated, rights_start,
                        rights_end, copies_left, prints_left, publication_path, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [.text(license.id), .text(license.provider), .text(license.user.id), .blob(license.data)] + dates
                        + [.integer(license.rights.copy), .integer(license.rights.print), .text(publicationPath),
                           .text(now), .text(now)])
            }
        }
    }

    public func licenseData(id: String) throws(LCPError) -> Data? {
        try store.withDatabase { database throws(SQLiteError) in
            try database.query("SELECT license_json FROM lcp_licenses WHERE license_id = ?", [.text(id)]).first?.data(0)
        }
    }

    public func allowance(licenseID: String) throws(LCPError) -> RightsAllowance? {
        try store.withDatabase { database throws(SQLiteError) in try Self.allowance(licenseID: licenseID, in: database) }
    }

    public func spend(_ right: LCPRight, amount: Int, licenseID: String) throws(LCPError) -> RightsDecision? {
        let column = right == .copy ? "copies_left" : "prints_left"
        return try store.transaction { database throws(SQLiteError) in
            guard let before = try Self.allowance(licenseID: licenseID, in: database) else { return nil }
            let counter = right == .copy ? before.copy : before.print
            guard counter.allows(amount) else { return .refused(before) }
            guard let left = counter.amount else { return .granted(before) }
            // Conditional as well: even a writer that ignored the transaction could not take
            // the counter below zero.
            let changed = try database.run(
                "UPDATE lcp_licenses SET \(column) = \(column) - ? WHERE license_id = ? AND \(column) >= ?",
                [.integer(amount), .text(licenseID), .integer(amount)])
            guard changed == 1 else { return .refused(before) }
            var after = before
            if right == .copy { after.copy = .left(left - amount) } else { after.print = .left(left - amount) }
            return .granted(after)
        }
    }

    /// Both counters in one read; NULL is unlimited.
    private static func allowance(licenseID: String, in database: SQLiteDatabase) throws(SQLiteError) -> RightsAllowance? {
        guard let row = try database.query("SELECT copies_left, prints_left FROM lcp_licenses WHERE license_id = ?",
                                           [.text(licenseID)]).first else { return nil }
        let counter = { (index: Int) -> RightAllowance in row.isNull(index) ? .unlimited : .left(row.int(index) ?? 0) }
        return RightsAllowance(copy: counter(0), print: counter(1))
    }

    public func isDeviceRegistered(licenseID: String) throws(LCPError) -> Bool {
        try store.withDatabase { database throws(SQLiteError) in
            try database.query("SELECT device_registered FROM lcp_licenses WHERE license_id = ?", [.text(licenseID)])
                .first?.int(0) == 1
        }
    }

    public func registerDevice(licenseID: String) throws(LCPError) {
        try store.withDatabase { database throws(SQLiteError) in
            try database.run("UPDATE lcp_licenses SET device_registered = 1, updated_at = ? WHERE license_id = ?",
                             [.text(LCPSQLiteStore.now()), .text(licenseID)])
        }
    }

    public func deviceID(provider: String) throws(LCPError) -> String {
        try store.transaction { database throws(SQLiteError) in
            if let existing = try database.query("SELECT device_id FROM lcp_device WHERE provider = ?", [.text(provider)])
                .first?.string(0) {
                return existing
            }
            let id = UUID().uuidString.lowercased()
            try database.run("INSERT INTO lcp_device (provider, device_id) VALUES (?, ?)", [.text(provider), .text(id)])
            return id
        }
    }

    public func updateStatus(_ status: StatusDocument, licenseID: String) throws(LCPError) {
        try store.withDatabase { database throws(SQLiteError) in
            try database.run("""
                UPDATE lcp_licenses SET status = ?, status_json = ?, status_checked_at = ? WHERE license_id = ?
                """, [.text(status.status.rawValue), .blob(status.data), .text(LCPSQLiteStore.now()), .text(licenseID)])
        }
    }

    /// Every stored license's loan: its status and rights period, for the bookshelf's loan
    /// column (which reads them through this repository, not the table).
    public func loans() throws(LCPError) -> [LCPLoanRecord] {
        try store.withDatabase { database throws(SQLiteError) in
            try database.query("SELECT license_id, status, rights_start, rights_end FROM lcp_licenses").compactMap { row in
                guard let id = row.string(0) else { return nil }
                return LCPLoanRecord(licenseID: id, status: row.string(1), rightsStart: row.string(2).flatMap(RFC3339Date.parse),
                                     rightsEnd: row.string(3).flatMap(RFC3339Date.parse))
            }
        }
    }
}

/// A license's loan as stored: its last known status and its rights period.
public struct LCPLoanRecord: Sendable, Hashable {
    public let licenseID: String
    /// The License Status Document's status (`active`, `returned`, `expired`…), when known.
    public let status: String?
    public let rightsStart: Date?
    public let rightsEnd: Date?
}

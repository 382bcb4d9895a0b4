import FoundationEssentials
import LibSQLite

/// The passwords of ZIP-password publications, remembered after their first unlock so that
/// the next open does not ask: sealed (``PasswordSealing``) in the library database, by
/// content identity, in `shelf_zip_passwords` (created by the library's named step
/// `library/6-zip-passwords`). Never written anywhere in clear.
public struct RememberedPasswords: Sendable {
    public let store: LibraryStore
    public let sealing: PasswordSealing

    public init(store: LibraryStore, sealing: PasswordSealing = PasswordSealing()) {
        self.store = store
        self.sealing = sealing
    }

    /// Created by the library's named step (``LibrarySchema/named``).
    static let table = """
        CREATE TABLE IF NOT EXISTS shelf_zip_passwords (
            identity TEXT PRIMARY KEY NOT NULL,
            sealed TEXT NOT NULL,
            saved_at REAL NOT NULL
        )
        """

    @discardableResult
    private func locked<T>(_ body: (SQLiteDatabase) throws(SQLiteError) -> T) throws(LibraryError) -> T {
        try store.locked(body)
    }

    /// The remembered password of the publication with this content identity.
    public func password(identity: String) throws(LibraryError) -> String? {
        let sealed = try locked { database throws(SQLiteError) in
            try database.query("SELECT sealed FROM shelf_zip_passwords WHERE identity = ?", [.text(identity)]).first?.string(0)
        }
        return sealed.flatMap(sealing.open)
    }

    /// Remembers `password` for the publication; false when it could not be sealed.
    @discardableResult
    public func remember(_ password: String, identity: String) throws(LibraryError) -> Bool {
        guard let sealed = sealing.seal(password) else { return false }
        try locked { database throws(SQLiteError) in
            try database.run("INSERT OR REPLACE INTO shelf_zip_passwords (identity, sealed, saved_at) VALUES (?, ?, ?)",
                             [.text(identity), .text(sealed), .real(Date().timeIntervalSince1970)])
        }
        return true
    }

    /// Forgets the password; false when none was remembered.
    @discardableResult
    public func forget(identity: String) throws(LibraryError) -> Bool {
        try locked { database throws(SQLiteError) in
            try database.run("DELETE FROM shelf_zip_passwords WHERE identity = ?", [.text(identity)]) > 0
        }
    }
}

import FoundationEssentials
import LCP
import LCPSQLite

/// The LCP user key a catalog handed out with a borrow (`lcp_hashed_passphrase`, hexadecimal
/// or base64 SHA-256) or that the person typed with `--passphrase`, stored in the passphrase
/// repository for the borrowed license, so that the book opens without asking.
enum CatalogPassphrase {
    ///
    /// Returns why the keys could not be stored (the book then asks for its passphrase), nil
    /// when they were or there were none. A license that does not parse stores nothing: its
    /// acquisition fails with the reason right after.
    @discardableResult
    static func store(_ hashed: String?, typed: String?, license: Data) -> String? {
        var keys: [String] = []
        if let hashed, let key = userKey(fromHashed: hashed) { keys.append(key) }
        if let typed, !typed.isEmpty { keys.append(BasicProfileLCPClient.userKey(passphrase: typed)) }
        guard !keys.isEmpty, let document = try? LicenseDocument(data: license) else { return nil }
        let store: LCPSQLiteStore
        switch LibraryDatabase.process {
        case .success(let database): store = database.lcp
        case .failure(let error): return "the catalog's passphrase was not remembered (\(error.userMessage)); the book will ask for it"
        }
        do throws(LCPError) {
            let repository = LCPSQLitePassphraseRepository(store: store)
            for key in keys {
                try repository.addPassphrase(key, licenseID: document.id, provider: document.provider, userID: document.user.id)
            }
            return nil
        } catch {
            return "the catalog's passphrase was not remembered (\(error.userMessage)); the book will ask for it"
        }
    }

    /// The lower-case hexadecimal user key of a hashed passphrase given as 64 hexadecimal
    /// digits or as base64 of the 32 bytes; nil for anything else.
    static func userKey(fromHashed text: String) -> String? {
        let trimmed = text.filter { !$0.isWhitespace }
        if trimmed.count == 64, trimmed.allSatisfy(\.isHexDigit) { return trimmed.lowercased() }
        guard let bytes = Data(base64Encoded: trimmed), bytes.count == 32 else { return nil }
        return bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

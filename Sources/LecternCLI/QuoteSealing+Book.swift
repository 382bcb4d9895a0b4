import Bookshelf
import LCP
import LCPSQLite
import Shared

extension QuoteSealing {
    /// How a book's quotes are sealed: an LCP book's with a key derived from the user key that
    /// opened it (the one the license repository `lcp` remembers), a ZIP- or PDF-password
    /// book's with the remembered passwords' key file; nil for an unprotected book — and for an
    /// LCP book whose key is not at hand, so that the store refuses to keep its quotes rather
    /// than keep them in clear. One rule for the command line and the interface.
    static func forBook(_ publication: Publication, protection: ProtectionMark, lcp: LCPSQLiteStore?) -> QuoteSealing? {
        switch protection {
        case .none:
            return nil
        case .lcp:
            guard let license = publication.lcpLicense, !license.isLocked, let lcp,
                  let keys = try? LCPSQLitePassphraseRepository(store: lcp).passphrases(licenseID: license.license.id),
                  let key = BasicProfileLCPClient().findOneValidPassphrase(jsonLicense: license.license.text, hashedPassphrases: keys)
            else { return nil }
            return QuoteSealing.lcp(userKeyHex: key)
        case .password, .signedAudiobook, .unsupported:
            return QuoteSealing.password()
        }
    }
}

import FoundationEssentials
import LibCrypto

/// How the quotes of a protected book's annotations (the quoted text, its prefix and suffix:
/// the book's words) are kept in the library: sealed, never in clear (AES-256-CBC, then
/// HMAC-SHA-256, the primitives of ``PasswordSealing``).
///
/// - For Readium LCP, the key is derived from the book's user key (the SHA-256 of the
///   passphrase, what the LCP repositories remember): the quotes open only where the book
///   does — a library that remembers the passphrase opens both, one that does not, neither.
/// - For ZIP- and PDF-password books, the key is ``PasswordSealing``'s key file, as for the
///   remembered password itself.
public struct QuoteSealing: Sendable {
    /// Which key sealed a stored quote (kept beside it, so that a quote is only tried with
    /// the right kind of key).
    public enum Kind: String, Sendable, Hashable {
        case lcp
        case password
    }

    public let kind: Kind
    private let source: Source

    private enum Source: Sendable {
        case derived([UInt8])
        case keyFile(PasswordSealing)
    }

    /// The label the LCP derivation mixes in: a key of its own, used for nothing else.
    static let lcpLabel = Array("lectern/annotation-quotes/v1".utf8)

    /// The sealing of an LCP book's quotes, from its user key (32 bytes).
    public static func lcp(userKey: [UInt8]) -> QuoteSealing {
        // HMAC-SHA-256 keyed by the user key over a fixed label gives the encryption half, and
        // over the label and 0x01 the authentication half: two independent 32-byte keys.
        let encryption = (try? MessageAuthenticationCode.hmac(.sha256, key: userKey, message: lcpLabel + [0])) ?? []
        let authentication = (try? MessageAuthenticationCode.hmac(.sha256, key: userKey, message: lcpLabel + [1])) ?? []
        return QuoteSealing(kind: .lcp, source: .derived(encryption + authentication))
    }

    /// The sealing of an LCP book's quotes from its user key written as 64 hexadecimal digits
    /// (as the LCP repositories keep it); nil when it is not one.
    public static func lcp(userKeyHex: String) -> QuoteSealing? {
        guard userKeyHex.utf8.count == 64, let key = PasswordSealing.bytes(hex: userKeyHex.lowercased()) else { return nil }
        return lcp(userKey: key)
    }

    /// The sealing of a ZIP- or PDF-password book's quotes: the remembered passwords' key file.
    public static func password(_ sealing: PasswordSealing = PasswordSealing()) -> QuoteSealing {
        QuoteSealing(kind: .password, source: .keyFile(sealing))
    }

    /// `text` sealed; nil when it cannot be (the key file cannot be made).
    func seal(_ text: String) -> String? {
        switch source {
        case .derived(let key): PasswordSealing.seal(text, key: key)
        case .keyFile(let sealing): sealing.seal(text)
        }
    }

    /// The text `sealed` holds; nil when this key did not seal it.
    func open(_ sealed: String) -> String? {
        switch source {
        case .derived(let key): PasswordSealing.open(sealed, key: key)
        case .keyFile(let sealing): sealing.open(sealed)
        }
    }
}

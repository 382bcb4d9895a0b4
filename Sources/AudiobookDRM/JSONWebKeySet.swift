import FoundationEssentials
import LibCrypto
import Shared

/// The RSA public keys of an issuer's JSON Web Key Set (RFC 7517), in the Cantook form:
/// `{"keys": [{"kty": "RSA", "n", "e", "kid", "…/signature/pem-key": "-----BEGIN PUBLIC KEY…"}]}`.
///
/// Each key is taken from its `n`/`e` and, independently, from the non-standard PEM member
/// (normally the same key). Private members (`d`, `p`…) are never read. Keys shorter than
/// 2048 bits or longer than 8192 are ignored.
struct JSONWebKeySet: Sendable {
    /// The usable keys, in the set's order.
    let keys: [PublicKey]

    /// Keys in a set beyond this number are ignored: a signature is checked against every key.
    static let maxKeys = 32
    static let acceptedBits = 2048...8192

    /// Why a key set is unusable, for ``AudiobookDRMError/keysUnparseable(issuer:url:reason:)``.
    struct ParseError: Error {
        let reason: String
    }

    /// Parses the body of a key-set response.
    init(data: some Collection<UInt8>) throws(ParseError) {
        let json: JSONValue
        do {
            json = try JSONParser.parse(data)
        } catch {
            throw ParseError(reason: "not JSON: \(error.message)")
        }
        guard let entries = json["keys"]?.array else { throw ParseError(reason: "no `keys` array") }
        var keys: [PublicKey] = []
        for entry in entries.prefix(Self.maxKeys) {
            guard let object = entry.object else { continue }
            if object["kty"]?.string == "RSA", let n = object["n"]?.string.flatMap(Base64.decode),
               let e = object["e"]?.string.flatMap(Base64.decode),
               let key = try? PublicKey.rsa(modulus: n, exponent: e), Self.acceptedBits.contains(key.bitCount) {
                keys.append(key)
            }
            if let pem = object[FeedbooksVocabulary.pemKeyMember]?.string, let key = try? PublicKey(pem: pem),
               key.kind == .rsa, Self.acceptedBits.contains(key.bitCount) {
                keys.append(key)
            }
        }
        guard !keys.isEmpty else { throw ParseError(reason: "no usable RSA public key") }
        self.keys = keys
    }

    /// Whether a key of the set verifies `signature` over `message` (RSA PKCS#1 v1.5, SHA-256).
    func verifies(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        keys.contains { $0.verifySignature(signature, of: message, algorithm: .rsaPKCS1v15SHA256) }
    }
}

/// Base64 decoding that tolerates what key sets and signatures contain in practice.
enum Base64 {
    /// Standard or URL-safe base64 (JWK members are base64url, signatures standard base64),
    /// with or without padding, whitespace ignored.
    static func decode(_ text: String) -> [UInt8]? {
        var cleaned = String(text.unicodeScalars.filter { !$0.properties.isWhitespace }.map { scalar -> Character in
            switch scalar {
            case "-": "+"
            case "_": "/"
            default: Character(scalar)
            }
        })
        guard !cleaned.isEmpty else { return nil }
        while cleaned.count % 4 != 0 { cleaned.append("=") }
        return Data(base64Encoded: cleaned).map { [UInt8]($0) }
    }
}

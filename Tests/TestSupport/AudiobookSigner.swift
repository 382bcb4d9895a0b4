import Foundation

/// Signs Readium audiobook manifests as the Feedbooks/Cantook signer does, independently of
/// Lectern's code: an RSA key made by `openssl`, the canonical form made by Python
/// (`json.dumps(sort_keys=True, separators=(',', ':'), ensure_ascii=False)` of the manifest
/// without its signature), an RSA-SHA256 PKCS#1 v1.5 signature by `openssl dgst`, and the
/// public key published as a JSON Web Key Set in the Cantook form (`n`/`e` plus the PEM member).
public final class AudiobookSigner: Sendable {
    public static let rsaSHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"
    public static let signatureKey = "http://www.feedbooks.com/audiobooks/signature"

    /// The private key (PEM), in a temporary folder; never checked in.
    public let privateKeyPath: String
    /// The public key as an SPKI PEM.
    public let publicKeyPEM: String
    /// The public JWK (`kty`, `e`, `n`, `kid`, PEM member).
    public let jwk: [String: String]

    /// Generates a key (2048 bits unless said otherwise).
    public init(bits: Int = 2048, kid: String = UUID().uuidString) throws {
        let directory = Fixtures.temporaryDirectory("audiobook-signer")
        privateKeyPath = directory + "/key.pem"
        try Command.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:\(bits)", "-out", privateKeyPath])
        publicKeyPEM = String(decoding: try Command.run(["openssl", "rsa", "-in", privateKeyPath, "-pubout"]), as: UTF8.self)
        let modulusLine = String(decoding: try Command.run(["openssl", "rsa", "-in", privateKeyPath, "-noout", "-modulus"]), as: UTF8.self)
        let hex = modulusLine.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "Modulus=", with: "")
        var modulus = [UInt8]()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            modulus.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        jwk = ["kty": "RSA", "e": "AQAB", "kid": kid, "n": Self.base64URL(Data(modulus)),
               "http://www.feedbooks.com/audiobooks/signature/pem-key": publicKeyPEM]
    }

    /// A JSON Web Key Set publishing `signers`' public keys.
    public static func keySet(_ signers: [AudiobookSigner]) -> Data {
        try! JSONSerialization.data(withJSONObject: ["keys": signers.map(\.jwk)], options: [.prettyPrinted])
    }

    /// The canonical bytes Python makes of `manifest` minus its signature: what the signer signs.
    public static func canonicalBytes(_ manifest: Data) throws -> Data {
        try Command.python(canonicalProgram + "\nsys.stdout.buffer.write(canonical(json.loads(sys.stdin.buffer.read())))",
                           input: manifest)
    }

    /// Signs `manifest` (JSON text without a signature, its members in any order) and returns it
    /// with `metadata["…/signature"]` added, pretty-printed in its own member order.
    ///
    /// - Parameters:
    ///   - issuer: the `issuer` member; nil leaves it out.
    ///   - algorithm: the `algorithm` member.
    ///   - asciiOnly: write non-ASCII characters as `\u` escapes (the canonical form is the same).
    public func sign(_ manifest: Data, issuer: String?, algorithm: String = AudiobookSigner.rsaSHA256,
                     asciiOnly: Bool = false) throws -> Data {
        let program = Self.canonicalProgram + """

            doc = json.loads(sys.stdin.buffer.read())
            signed = subprocess.run(["openssl", "dgst", "-sha256", "-sign", sys.argv[1]], input=canonical(doc),
                                    capture_output=True, check=True).stdout
            signature = {"algorithm": sys.argv[3], "value": base64.b64encode(signed).decode()}
            if sys.argv[2]:
                signature["issuer"] = sys.argv[2]
            doc["metadata"][SIGNATURE] = signature
            sys.stdout.buffer.write(json.dumps(doc, indent=2, ensure_ascii=sys.argv[4] == "1").encode("utf-8"))
            """
        return try Command.python(program, [privateKeyPath, issuer ?? "", algorithm, asciiOnly ? "1" : "0"], input: manifest)
    }

    private static let canonicalProgram = """
        import base64, json, subprocess, sys
        SIGNATURE = "\(signatureKey)"
        def canonical(doc):
            doc = json.loads(json.dumps(doc))
            doc["metadata"].pop(SIGNATURE, None)
            return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        """

    /// Base64url without padding (RFC 7515).
    public static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

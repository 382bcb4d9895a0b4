import CLecternCrypto

/// A public key parsed by OpenSSL (an `EVP_PKEY`), for verifying signatures: from a
/// SubjectPublicKeyInfo (DER or PEM), from the modulus and exponent of an RSA key (a JWK's
/// `n` and `e`), or from an X.509 certificate.
public final class PublicKey: @unchecked Sendable {
    /// The key types Lectern tells apart.
    public enum Kind: Sendable, Hashable {
        case rsa
        case ec
        case other
    }

    /// The `EVP_PKEY*`, owned; OpenSSL keys are immutable once parsed, so sharing them between
    /// threads for verification is safe.
    let handle: OpaquePointer

    /// Takes ownership of an `EVP_PKEY*`.
    init(owning handle: OpaquePointer) {
        self.handle = handle
    }

    deinit { lectern_EVP_PKEY_free(handle) }

    /// Parses a DER-encoded SubjectPublicKeyInfo (the body of a `PUBLIC KEY` PEM block).
    public convenience init(subjectPublicKeyInfoDER der: some Collection<UInt8>) throws(CryptoError) {
        let bytes = Array(der)
        guard !bytes.isEmpty, bytes.count < 1 << 20 else { throw .invalidInput("empty or oversized public key") }
        let parsed: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return lectern_d2i_PUBKEY(nil, &cursor, buffer.count)
        }
        guard let parsed else { throw .invalidInput("not a DER public key (\(lastOpenSSLError()))") }
        self.init(owning: parsed)
    }

    /// Parses the first `PUBLIC KEY` block of a PEM text. Whitespace inside the base64 body is
    /// ignored (published keys sometimes carry stray spaces or odd line lengths, which
    /// OpenSSL's PEM reader rejects), so the body is re-wrapped before parsing.
    public convenience init(pem: String) throws(CryptoError) {
        let begin = "-----BEGIN PUBLIC KEY-----", end = "-----END PUBLIC KEY-----"
        guard let start = pem.firstRange(of: begin), let stop = pem[start.upperBound...].firstRange(of: end) else {
            throw .invalidInput("no PEM public key found")
        }
        let body = pem[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }
        guard !body.isEmpty, body.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+/=".contains($0)) }) else {
            throw .invalidInput("the PEM public key is not base64")
        }
        var lines: [Substring] = []
        var rest = Substring(body)
        while !rest.isEmpty {
            lines.append(rest.prefix(64))
            rest = rest.dropFirst(64)
        }
        let normalised = ([begin] + lines.map(String.init) + [end, ""]).joined(separator: "\n")
        let parsed = withMemoryBIO(Array(normalised.utf8)) { bio in lectern_PEM_read_bio_PUBKEY(bio, nil, nil, nil) }
        guard let parsed else { throw .invalidInput("not a PEM public key (\(lastOpenSSLError()))") }
        self.init(owning: parsed)
    }

    /// The RSA public key with this modulus and public exponent (unsigned big-endian integers,
    /// as in a JWK's `n` and `e` once base64url-decoded).
    public static func rsa(modulus: some Collection<UInt8>, exponent: some Collection<UInt8>) throws(CryptoError) -> PublicKey {
        let n = Array(modulus.drop { $0 == 0 }), e = Array(exponent.drop { $0 == 0 })
        guard !n.isEmpty, !e.isEmpty else { throw .invalidInput("empty RSA modulus or exponent") }
        guard n.count <= 2048, e.count <= 64 else { throw .invalidInput("oversized RSA modulus or exponent") }
        // SubjectPublicKeyInfo { AlgorithmIdentifier { rsaEncryption, NULL }, BIT STRING { RSAPublicKey { n, e } } }
        let rsaPublicKey = DER.sequence(DER.integer(n) + DER.integer(e))
        let algorithm = DER.sequence(DER.rsaEncryptionOID + DER.null)
        let spki = DER.sequence(algorithm + DER.bitString(rsaPublicKey))
        let key = try PublicKey(subjectPublicKeyInfoDER: spki)
        guard key.kind == .rsa else { throw .invalidInput("not an RSA key") }
        return key
    }

    /// The key type.
    public var kind: Kind {
        switch lectern_EVP_PKEY_get_base_id(handle) {
        case EVP_PKEY_RSA: .rsa
        case EVP_PKEY_EC: .ec
        default: .other
        }
    }

    /// The key size in bits (the modulus size for RSA).
    public var bitCount: Int { Int(lectern_EVP_PKEY_get_bits(handle)) }

    /// Whether `signature` is a valid signature of `message` by this key. Any malformed input
    /// (wrong key type, bad encoding) is simply "not valid".
    public func verifySignature(_ signature: some Collection<UInt8>, of message: some Collection<UInt8>,
                                algorithm: SignatureAlgorithm) -> Bool {
        defer { lectern_ERR_clear_error() }
        var signatureBytes = Array(signature)
        switch algorithm {
        case .rsaPKCS1v15SHA256:
            guard kind == .rsa else { return false }
        case .ecdsaSHA256Raw:
            guard kind == .ec, let der = ECDSASignature.der(fromRaw: signatureBytes) else { return false }
            signatureBytes = der
        case .ecdsaSHA256DER:
            guard kind == .ec else { return false }
        }
        guard let context = lectern_EVP_MD_CTX_new() else { return false }
        defer { lectern_EVP_MD_CTX_free(context) }
        guard lectern_EVP_DigestVerifyInit(context, nil, lectern_EVP_sha256(), nil, handle) == 1 else { return false }
        if algorithm == .rsaPKCS1v15SHA256 {
            // PKCS#1 v1.5 is OpenSSL's default for RSA, but say so rather than rely on it.
            guard let keyContext = lectern_EVP_MD_CTX_get_pkey_ctx(context),
                  lectern_EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PADDING) == 1 else { return false }
        }
        let data = Array(message)
        let result = signatureBytes.withUnsafeBufferPointer { sig in
            data.withUnsafeBufferPointer { msg in
                lectern_EVP_DigestVerify(context, sig.baseAddress, sig.count, msg.baseAddress, msg.count)
            }
        }
        return result == 1
    }
}

extension X509Certificate {
    /// The certificate's public key; nil when OpenSSL cannot decode it.
    public var publicKey: PublicKey? {
        guard let key = lectern_X509_get_pubkey(handle) else {
            lectern_ERR_clear_error()
            return nil
        }
        return PublicKey(owning: key)
    }
}

/// The few DER encodings needed to wrap raw RSA numbers in a SubjectPublicKeyInfo.
enum DER {
    static let rsaEncryptionOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
    static let null: [UInt8] = [0x05, 0x00]

    static func sequence(_ content: [UInt8]) -> [UInt8] { element(0x30, content) }

    static func bitString(_ content: [UInt8]) -> [UInt8] { element(0x03, [0x00] + content) }

    /// A non-negative INTEGER from unsigned big-endian bytes without leading zeros.
    static func integer(_ magnitude: [UInt8]) -> [UInt8] {
        // A set high bit would read as negative: prefix a zero byte.
        element(0x02, (magnitude.first ?? 0) >= 0x80 ? [0x00] + magnitude : magnitude)
    }

    static func element(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        [tag] + length(content.count) + content
    }

    static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var rest = count
        while rest > 0 {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }
}

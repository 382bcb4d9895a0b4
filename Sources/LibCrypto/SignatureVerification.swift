import CLecternCrypto

/// The signature schemes Lectern verifies.
public enum SignatureAlgorithm: Sendable, Hashable {
    /// RSASSA-PKCS1-v1_5 with SHA-256 (`http://www.w3.org/2001/04/xmldsig-more#rsa-sha256`).
    case rsaPKCS1v15SHA256
    /// ECDSA with SHA-256, the signature given as raw `r‖s` (IEEE P1363), each half padded to
    /// the curve size, as in XML-DSig and LCP (`…xmldsig-more#ecdsa-sha256`).
    case ecdsaSHA256Raw
    /// ECDSA with SHA-256, the signature given as a DER `ECDSA-Sig-Value` (OpenSSL's own form).
    case ecdsaSHA256DER
}

extension X509Certificate {
    /// Whether `signature` is a valid signature of `message` by the certificate's public key.
    /// Any malformed input (wrong key type, bad encoding) is simply "not valid".
    public func verifySignature(_ signature: some Collection<UInt8>, of message: some Collection<UInt8>,
                                algorithm: SignatureAlgorithm) -> Bool {
        publicKey?.verifySignature(signature, of: message, algorithm: algorithm) ?? false
    }
}

/// Conversions between the two encodings of an ECDSA signature.
public enum ECDSASignature {
    /// The DER `ECDSA-Sig-Value` of a raw `r‖s` signature (two equal halves); nil when the
    /// input cannot be one.
    public static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard !raw.isEmpty, raw.count % 2 == 0, raw.count <= 264 else { return nil }
        let half = raw.count / 2
        guard let signature = lectern_ECDSA_SIG_new() else { return nil }
        defer { lectern_ECDSA_SIG_free(signature) }
        let r = raw[0..<half].withUnsafeBufferPointer { lectern_BN_bin2bn($0.baseAddress, Int32(half), nil) }
        let s = raw[half...].withUnsafeBufferPointer { lectern_BN_bin2bn($0.baseAddress, Int32(half), nil) }
        guard let r, let s else {
            lectern_BN_free(r)
            lectern_BN_free(s)
            return nil
        }
        // ECDSA_SIG_set0 takes ownership of both numbers.
        guard lectern_ECDSA_SIG_set0(signature, r, s) == 1 else {
            lectern_BN_free(r)
            lectern_BN_free(s)
            return nil
        }
        let length = lectern_i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { return nil }
        var output = [UInt8](repeating: 0, count: Int(length))
        let written = output.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return lectern_i2d_ECDSA_SIG(signature, &cursor)
        }
        return written == length ? output : nil
    }
}

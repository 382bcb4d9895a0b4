import CLecternCrypto

/// An X.509 certificate revocation list parsed by OpenSSL.
public final class X509CRL: @unchecked Sendable {
    /// The `X509_CRL*`, owned; read-only after parsing.
    let handle: OpaquePointer

    /// Parses a DER-encoded CRL.
    public init(der: some Collection<UInt8>) throws(CryptoError) {
        let bytes = Array(der)
        guard !bytes.isEmpty, bytes.count < Int(Int32.max) else { throw .invalidInput("empty or oversized CRL") }
        let parsed: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return lectern_d2i_X509_CRL(nil, &cursor, buffer.count)
        }
        guard let parsed else { throw .invalidInput("not a DER X.509 CRL (\(lastOpenSSLError()))") }
        handle = parsed
    }

    /// Parses the first `X509 CRL` block of a PEM text.
    public init(pem: String) throws(CryptoError) {
        let parsed: OpaquePointer? = withMemoryBIO(Array(pem.utf8)) { bio in
            lectern_PEM_read_bio_X509_CRL(bio, nil, nil, nil)
        }
        guard let parsed else { throw .invalidInput("not a PEM X.509 CRL (\(lastOpenSSLError()))") }
        handle = parsed
    }

    /// Parses a CRL given as PEM text or DER bytes, whichever it is.
    public convenience init(pemOrDER bytes: some Collection<UInt8>) throws(CryptoError) {
        let array = Array(bytes)
        if array.starts(with: Array("-----BEGIN".utf8)) || array.first.map({ $0 == 0x0A || $0 == 0x0D || $0 == 0x20 }) == true {
            try self.init(pem: String(decoding: array, as: UTF8.self))
        } else {
            try self.init(der: array)
        }
    }

    deinit { lectern_X509_CRL_free(handle) }

    /// The DER encoding (what CRL distribution points serve).
    public var der: [UInt8] {
        let length = lectern_i2d_X509_CRL(handle, nil)
        guard length > 0 else { return [] }
        var output = [UInt8](repeating: 0, count: Int(length))
        let written = output.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return lectern_i2d_X509_CRL(handle, &cursor)
        }
        return written == length ? output : []
    }

    /// The PEM encoding (what ``LCPClient`` takes).
    public var pem: String {
        guard let bio = lectern_BIO_new(lectern_BIO_s_mem()) else { return "" }
        defer { lectern_BIO_free(bio) }
        guard lectern_PEM_write_bio_X509_CRL(bio, handle) == 1 else { return "" }
        var pointer: UnsafeMutablePointer<CChar>?
        let length = lectern_BIO_ctrl(bio, BIO_CTRL_INFO, 0, &pointer)
        guard length > 0, let pointer else { return "" }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
        }
    }

    /// When the CRL was issued (seconds since the epoch).
    public var thisUpdate: Int64? { epochSeconds(lectern_X509_CRL_get0_lastUpdate(handle)) }
    /// When the next CRL is due (seconds since the epoch), if the issuer says.
    public var nextUpdate: Int64? { epochSeconds(lectern_X509_CRL_get0_nextUpdate(handle)) }

    /// The issuer, one line.
    public var issuer: String { X509Certificate.oneLine(lectern_X509_CRL_get_issuer(handle)) }

    /// Whether `certificate` issued this CRL: same name, and the CRL's signature verifies with
    /// its public key.
    public func isIssued(by certificate: X509Certificate) -> Bool {
        defer { lectern_ERR_clear_error() }
        guard lectern_X509_NAME_cmp(lectern_X509_CRL_get_issuer(handle), lectern_X509_get_subject_name(certificate.handle)) == 0,
              let key = lectern_X509_get_pubkey(certificate.handle) else { return false }
        defer { lectern_EVP_PKEY_free(key) }
        return lectern_X509_CRL_verify(handle, key) == 1
    }

    /// Whether `certificate` is listed as revoked. Only meaningful for a certificate whose
    /// issuer issued this CRL: check ``isIssued(by:)`` first.
    public func isRevoked(_ certificate: X509Certificate) -> Bool {
        guard lectern_X509_NAME_cmp(lectern_X509_CRL_get_issuer(handle), lectern_X509_get_issuer_name(certificate.handle)) == 0 else {
            return false
        }
        var entry: OpaquePointer?
        // 1 = revoked; 2 = listed with the removeFromCRL reason (a delta CRL undoing a hold).
        return lectern_X509_CRL_get0_by_cert(handle, &entry, certificate.handle) == 1
    }
}

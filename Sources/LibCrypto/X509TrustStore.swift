import CLecternCrypto

/// Verifies certificate chains against a set of trust anchors with OpenSSL's `X509_STORE`,
/// at a chosen time rather than now (an LCP provider certificate must have been valid when
/// the license was issued, not today), optionally checking revocation against CRLs.
public final class X509TrustStore: Sendable {
    /// The trust anchors (self-signed roots or pinned intermediates).
    public let anchors: [X509Certificate]

    public init(anchors: [X509Certificate]) {
        self.anchors = anchors
    }

    /// The outcome of a chain verification.
    public struct Result: Sendable, Hashable {
        /// OpenSSL's `X509_V_*` code (0 = ok).
        public let code: Int32
        /// OpenSSL's text for the code.
        public let message: String
        /// Depth in the chain where verification stopped (0 = the certificate itself).
        public let depth: Int32

        public var isValid: Bool { code == X509_V_OK }
        /// The certificate (or one in its chain) was revoked.
        public var isRevoked: Bool { code == X509_V_ERR_CERT_REVOKED }
        /// The certificate (or one in its chain) was not valid at the verification time.
        public var isOutsideValidity: Bool {
            code == X509_V_ERR_CERT_HAS_EXPIRED || code == X509_V_ERR_CERT_NOT_YET_VALID
        }
        /// No chain to an anchor could be built or its signatures do not verify.
        public var isUntrusted: Bool { !isValid && !isRevoked && !isOutsideValidity }
    }

    /// Verifies `certificate`, with `intermediates` as untrusted helpers, at `time` (seconds
    /// since the epoch; every certificate of the chain and every CRL must be valid then).
    ///
    /// - Parameter crls: when not empty, the certificate's revocation is checked and a CRL
    ///   from its issuer is required (`X509_V_FLAG_CRL_CHECK`).
    public func verify(_ certificate: X509Certificate, intermediates: [X509Certificate] = [],
                       at time: Int64, crls: [X509CRL] = []) -> Result {
        defer { lectern_ERR_clear_error() }
        guard let store = lectern_X509_STORE_new() else { return Self.failure("cannot create an X509_STORE") }
        defer { lectern_X509_STORE_free(store) }
        for anchor in anchors { lectern_X509_STORE_add_cert(store, anchor.handle) }
        for crl in crls { lectern_X509_STORE_add_crl(store, crl.handle) }

        guard let untrusted = lectern_OPENSSL_sk_new_null() else { return Self.failure("cannot create a stack") }
        defer { lectern_OPENSSL_sk_free(untrusted) }
        for intermediate in intermediates { lectern_OPENSSL_sk_push(untrusted, UnsafeRawPointer(intermediate.handle)) }

        guard let context = lectern_X509_STORE_CTX_new() else { return Self.failure("cannot create an X509_STORE_CTX") }
        defer { lectern_X509_STORE_CTX_free(context) }
        guard lectern_X509_STORE_CTX_init(context, store, certificate.handle, untrusted) == 1 else {
            return Self.failure(lastOpenSSLError())
        }
        let parameters = lectern_X509_STORE_CTX_get0_param(context)
        lectern_X509_VERIFY_PARAM_set_time(parameters, time_t(time))
        if !crls.isEmpty { lectern_X509_VERIFY_PARAM_set_flags(parameters, UInt(X509_V_FLAG_CRL_CHECK)) }

        let verified = lectern_X509_verify_cert(context)
        let code = lectern_X509_STORE_CTX_get_error(context)
        let depth = lectern_X509_STORE_CTX_get_error_depth(context)
        if verified == 1 { return Result(code: X509_V_OK, message: "ok", depth: 0) }
        let effective = code == X509_V_OK ? X509_V_ERR_UNSPECIFIED : code
        return Result(code: effective, message: String(cString: lectern_X509_verify_cert_error_string(Int(effective))), depth: depth)
    }

    private static func failure(_ message: String) -> Result {
        Result(code: X509_V_ERR_UNSPECIFIED, message: message, depth: 0)
    }
}

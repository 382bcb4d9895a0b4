import CLecternCrypto
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An X.509 certificate parsed by OpenSSL.
///
/// Times are seconds since the Unix epoch (UTC), so that this module stays free of Foundation.
public final class X509Certificate: @unchecked Sendable {
    /// The `X509*`, owned; OpenSSL certificates are immutable once parsed, so sharing them
    /// between threads for reading is safe.
    let handle: OpaquePointer

    /// The DER encoding, as parsed.
    public let der: [UInt8]

    /// Parses a DER-encoded certificate.
    public init(der: some Collection<UInt8>) throws(CryptoError) {
        let bytes = Array(der)
        guard !bytes.isEmpty, bytes.count < Int(Int32.max) else { throw .invalidInput("empty or oversized certificate") }
        let parsed: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return lectern_d2i_X509(nil, &cursor, buffer.count)
        }
        guard let parsed else { throw .invalidInput("not a DER X.509 certificate (\(lastOpenSSLError()))") }
        handle = parsed
        self.der = Self.encode(parsed) ?? bytes
    }

    /// Takes ownership of an `X509*`.
    init(owning handle: OpaquePointer) {
        self.handle = handle
        der = Self.encode(handle) ?? []
    }

    deinit { lectern_X509_free(handle) }

    /// Parses every `CERTIFICATE` block of a PEM text, in order.
    public static func certificates(pem: String) throws(CryptoError) -> [X509Certificate] {
        var result: [X509Certificate] = []
        try withMemoryBIO(Array(pem.utf8)) { bio throws(CryptoError) in
            while let certificate = lectern_PEM_read_bio_X509(bio, nil, nil, nil) {
                result.append(X509Certificate(owning: certificate))
            }
            // Reaching the end of the text leaves a "no start line" error on the queue.
            lectern_ERR_clear_error()
        }
        if result.isEmpty { throw .invalidInput("no PEM certificate found") }
        return result
    }

    /// Parses the first `CERTIFICATE` block of a PEM text.
    public convenience init(pem: String) throws(CryptoError) {
        let first = try Self.certificates(pem: pem)[0]
        try self.init(der: first.der)
    }

    private static func encode(_ handle: OpaquePointer) -> [UInt8]? {
        let length = lectern_i2d_X509(handle, nil)
        guard length > 0 else { return nil }
        var output = [UInt8](repeating: 0, count: Int(length))
        let written = output.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return lectern_i2d_X509(handle, &cursor)
        }
        return written == length ? output : nil
    }

    /// SHA-256 of the DER encoding, the usual certificate fingerprint.
    public var sha256Fingerprint: [UInt8] { Digest.sha256(der) }

    /// Start of the validity period (seconds since the epoch).
    public var notBefore: Int64? { epochSeconds(lectern_X509_get0_notBefore(handle)) }
    /// End of the validity period (seconds since the epoch).
    public var notAfter: Int64? { epochSeconds(lectern_X509_get0_notAfter(handle)) }

    /// Whether `time` (seconds since the epoch) falls inside the validity period, bounds included.
    public func isValid(at time: Int64) -> Bool {
        guard let notBefore, let notAfter else { return false }
        return notBefore <= time && time <= notAfter
    }

    /// The subject, one line (`C=FR, O=EDRLab, CN=…`).
    public var subject: String { Self.oneLine(lectern_X509_get_subject_name(handle)) }
    /// The issuer, one line.
    public var issuer: String { Self.oneLine(lectern_X509_get_issuer_name(handle)) }

    /// The serial number in upper-case hexadecimal.
    public var serialNumberHex: String {
        guard let serial = lectern_X509_get0_serialNumber(handle), let number = lectern_ASN1_INTEGER_to_BN(serial, nil) else { return "" }
        defer { lectern_BN_free(number) }
        guard let hex = lectern_BN_bn2hex(number) else { return "" }
        defer { lectern_CRYPTO_free(hex, nil, 0) }
        return String(cString: hex)
    }

    static func oneLine(_ name: OpaquePointer?) -> String {
        guard let name, let bio = lectern_BIO_new(lectern_BIO_s_mem()) else { return "" }
        defer { lectern_BIO_free(bio) }
        // XN_FLAG_ONELINE (whose macro Swift cannot import), with UTF-8 written as is.
        let strings = UInt(ASN1_STRFLGS_ESC_2253 | ASN1_STRFLGS_ESC_CTRL | ASN1_STRFLGS_UTF8_CONVERT
            | ASN1_STRFLGS_DUMP_UNKNOWN | ASN1_STRFLGS_DUMP_DER | ASN1_STRFLGS_ESC_QUOTE)
        let flags = strings | UInt(XN_FLAG_SEP_CPLUS_SPC) | UInt(XN_FLAG_SPC_EQ)
        guard lectern_X509_NAME_print_ex(bio, name, 0, flags) >= 0 else { return "" }
        var pointer: UnsafeMutablePointer<CChar>?
        let length = lectern_BIO_ctrl(bio, BIO_CTRL_INFO, 0, &pointer)
        guard length > 0, let pointer else { return "" }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
        }
    }
}

/// An ASN.1 time as seconds since the epoch.
func epochSeconds(_ time: UnsafePointer<ASN1_TIME>?) -> Int64? {
    guard let time else { return nil }
    var parts = tm()
    guard lectern_ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
    return Int64(timegm(&parts))
}

/// Runs `body` with a read-only memory BIO over `bytes`.
func withMemoryBIO<T, E: Error>(_ bytes: [UInt8], _ body: (OpaquePointer) throws(E) -> T) throws(E) -> T {
    // An empty buffer still needs a valid pointer: BIO_new_mem_buf rejects NULL.
    let storage = bytes.isEmpty ? [0] : bytes
    return try storage.withUnsafeBufferPointer { buffer throws(E) -> T in
        let bio = lectern_BIO_new_mem_buf(buffer.baseAddress, Int32(bytes.count))!
        defer { lectern_BIO_free(bio) }
        return try body(bio)
    }
}

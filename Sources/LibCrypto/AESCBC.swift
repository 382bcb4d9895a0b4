import CLecternCrypto

/// AES-256-CBC decryption with OpenSSL's own padding turned off: callers strip the padding of
/// their format themselves (LCP uses XML-Encryption last-byte padding, not PKCS#7).
public enum AESCBC {
    /// Decrypts whole blocks of `ciphertext` with `key` (32 bytes) and `iv` (16 bytes).
    /// The ciphertext length must be a multiple of 16.
    public static func decrypt(
        key: some Collection<UInt8>, iv: some Collection<UInt8>, ciphertext: some Collection<UInt8>
    ) throws(CryptoError) -> [UInt8] {
        let key = Array(key), iv = Array(iv)
        guard key.count == 32 else { throw .invalidKey }
        guard iv.count == 16 else { throw .invalidInput("IV must be 16 bytes") }
        guard ciphertext.count % 16 == 0 else { throw .invalidInput("ciphertext is not a whole number of blocks") }
        guard let context = lectern_EVP_CIPHER_CTX_new() else { throw .library(lastOpenSSLError()) }
        defer { lectern_EVP_CIPHER_CTX_free(context) }
        guard lectern_EVP_DecryptInit_ex(context, lectern_EVP_aes_256_cbc(), nil, key, iv) == 1 else {
            throw .library(lastOpenSSLError())
        }
        lectern_EVP_CIPHER_CTX_set_padding(context, 0)
        var output = [UInt8](repeating: 0, count: ciphertext.count + 16)
        var written: Int32 = 0
        var total = 0
        let ok: Bool = output.withUnsafeMutableBufferPointer { out in
            let input = (ciphertext as? [UInt8]) ?? Array(ciphertext)
            return input.withUnsafeBufferPointer { inp in
                var offset = 0
                // EVP lengths are Int32: feed large inputs in slices.
                while offset < inp.count {
                    let count = min(inp.count - offset, 1 << 30)
                    guard lectern_EVP_DecryptUpdate(context, out.baseAddress! + total, &written,
                                            inp.baseAddress! + offset, Int32(count)) == 1 else { return false }
                    total += Int(written)
                    offset += count
                }
                guard lectern_EVP_DecryptFinal_ex(context, out.baseAddress! + total, &written) == 1 else { return false }
                total += Int(written)
                return true
            }
        }
        guard ok else { throw .library(lastOpenSSLError()) }
        output.removeSubrange(total...)
        return output
    }
}

/// Why a cryptographic operation failed.
public enum CryptoError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidKey
    case invalidInput(String)
    case library(String)

    public var description: String {
        switch self {
        case .invalidKey: "invalid key"
        case .invalidInput(let reason): reason
        case .library(let reason): "OpenSSL: \(reason)"
        }
    }
}

/// The oldest error on OpenSSL's queue, as text; the queue is cleared.
func lastOpenSSLError() -> String {
    let code = lectern_ERR_get_error()
    lectern_ERR_clear_error()
    guard code != 0 else { return "unknown error" }
    var buffer = [CChar](repeating: 0, count: 256)
    lectern_ERR_error_string_n(code, &buffer, buffer.count)
    return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}

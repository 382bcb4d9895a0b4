import CLecternCrypto

/// AES-256-CBC decryption of a long ciphertext piece by piece, without padding (callers strip
/// their format's padding): the OpenSSL context carries the chaining from one piece to the
/// next, so a large resource is decrypted in cache-sized chunks straight into its final
/// buffer, with no intermediate copies.
///
/// Not thread-safe: one decryptor per sequence of calls.
public final class AESCBCDecryptor {
    private let context: OpaquePointer

    /// - Parameters:
    ///   - key: 32 bytes.
    ///   - iv: 16 bytes, the ciphertext block before the first one to be decrypted.
    public init(key: some Collection<UInt8>, iv: some Collection<UInt8>) throws(CryptoError) {
        let key = Array(key), iv = Array(iv)
        guard key.count == 32 else { throw .invalidKey }
        guard iv.count == 16 else { throw .invalidInput("IV must be 16 bytes") }
        guard let context = lectern_EVP_CIPHER_CTX_new() else { throw .library(lastOpenSSLError()) }
        guard lectern_EVP_DecryptInit_ex(context, lectern_EVP_aes_256_cbc(), nil, key, iv) == 1 else {
            lectern_EVP_CIPHER_CTX_free(context)
            throw .library(lastOpenSSLError())
        }
        lectern_EVP_CIPHER_CTX_set_padding(context, 0)
        self.context = context
    }

    deinit { lectern_EVP_CIPHER_CTX_free(context) }

    /// Decrypts `count` bytes (a multiple of 16) from `input` to `output`, which may be the
    /// same memory (in place) but must not otherwise overlap it.
    public func decrypt(_ input: UnsafeRawPointer, count: Int, into output: UnsafeMutableRawPointer) throws(CryptoError) {
        guard count % 16 == 0 else { throw .invalidInput("ciphertext is not a whole number of blocks") }
        var offset = 0
        while offset < count {
            // EVP lengths are Int32.
            let piece = min(count - offset, 1 << 30)
            var written: Int32 = 0
            guard lectern_EVP_DecryptUpdate(context, (output + offset).assumingMemoryBound(to: UInt8.self), &written,
                                    (input + offset).assumingMemoryBound(to: UInt8.self), Int32(piece)) == 1,
                  Int(written) == piece else { throw .library(lastOpenSSLError()) }
            offset += piece
        }
    }
}

/// AES-256 on single blocks (ECB, no padding), one OpenSSL context re-keyed for each call: to
/// try many candidate keys against one ciphertext block cheaply (LCP's key check).
///
/// Not thread-safe.
public final class AES256BlockDecryptor {
    private let context: OpaquePointer

    public init() throws(CryptoError) {
        guard let context = lectern_EVP_CIPHER_CTX_new() else { throw .library(lastOpenSSLError()) }
        guard lectern_EVP_DecryptInit_ex(context, lectern_EVP_aes_256_ecb(), nil, nil, nil) == 1 else {
            lectern_EVP_CIPHER_CTX_free(context)
            throw .library(lastOpenSSLError())
        }
        lectern_EVP_CIPHER_CTX_set_padding(context, 0)
        self.context = context
    }

    deinit { lectern_EVP_CIPHER_CTX_free(context) }

    /// Decrypts the 16 bytes at `block` with the 32-byte `key` into the 16 bytes at `output`.
    public func decryptBlock(_ block: UnsafeRawPointer, key: UnsafeRawPointer, into output: UnsafeMutableRawPointer) -> Bool {
        var written: Int32 = 0
        guard lectern_EVP_DecryptInit_ex(context, nil, nil, key.assumingMemoryBound(to: UInt8.self), nil) == 1,
              lectern_EVP_DecryptUpdate(context, output.assumingMemoryBound(to: UInt8.self), &written,
                                block.assumingMemoryBound(to: UInt8.self), 16) == 1 else {
            lectern_ERR_clear_error()
            return false
        }
        return written == 16
    }
}

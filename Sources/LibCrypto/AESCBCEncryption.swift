import CLecternCrypto

extension AESCBC {
    /// Encrypts whole blocks of `plaintext` with `key` (32 bytes) and `iv` (16 bytes), without
    /// adding any padding: callers pad in their format's way first. Used to build protected
    /// packages (tests, license injection tools); readers only decrypt.
    public static func encrypt(
        key: some Collection<UInt8>, iv: some Collection<UInt8>, plaintext: some Collection<UInt8>
    ) throws(CryptoError) -> [UInt8] {
        let key = Array(key), iv = Array(iv), input = Array(plaintext)
        guard key.count == 32 else { throw .invalidKey }
        guard iv.count == 16 else { throw .invalidInput("IV must be 16 bytes") }
        guard input.count % 16 == 0 else { throw .invalidInput("plaintext is not a whole number of blocks") }
        guard let context = lectern_EVP_CIPHER_CTX_new() else { throw .library(lastOpenSSLError()) }
        defer { lectern_EVP_CIPHER_CTX_free(context) }
        guard lectern_EVP_EncryptInit_ex(context, lectern_EVP_aes_256_cbc(), nil, key, iv) == 1 else {
            throw .library(lastOpenSSLError())
        }
        lectern_EVP_CIPHER_CTX_set_padding(context, 0)
        var output = [UInt8](repeating: 0, count: input.count + 16)
        var total = 0
        let ok: Bool = output.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { inp in
                var written: Int32 = 0
                var offset = 0
                while offset < inp.count {
                    let count = min(inp.count - offset, 1 << 30)
                    guard lectern_EVP_EncryptUpdate(context, out.baseAddress! + total, &written,
                                            inp.baseAddress! + offset, Int32(count)) == 1 else { return false }
                    total += Int(written)
                    offset += count
                }
                guard lectern_EVP_EncryptFinal_ex(context, out.baseAddress! + total, &written) == 1 else { return false }
                total += Int(written)
                return true
            }
        }
        guard ok else { throw .library(lastOpenSSLError()) }
        output.removeSubrange(total...)
        return output
    }
}

import CLecternCrypto

/// HMAC (RFC 2104) computed by OpenSSL, and the constant-time comparison its codes need.
public enum MessageAuthenticationCode {
    /// The HMAC of `message` under `key` with the hash `algorithm` (full length: 20 bytes for
    /// SHA-1, 32 for SHA-256; formats that truncate it, like WinZip AES, keep a prefix).
    public static func hmac(
        _ algorithm: Digest.Algorithm, key: some Collection<UInt8>, message: some Collection<UInt8>
    ) throws(CryptoError) -> [UInt8] {
        let key = Array(key), message = (message as? [UInt8]) ?? Array(message)
        guard key.count <= Int(Int32.max) else { throw .invalidKey }
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = key.withUnsafeBufferPointer { key in
            message.withUnsafeBufferPointer { message in
                // The one-shot HMAC() is not deprecated in OpenSSL 3, unlike HMAC_CTX.
                lectern_HMAC(algorithm.evp, key.baseAddress, Int32(key.count),
                             message.baseAddress, message.count, &output, &length)
            }
        }
        guard result != nil else { throw .library(lastOpenSSLError()) }
        return Array(output[0..<Int(length)])
    }

    /// Whether `a` and `b` are equal, in a time that does not depend on where they differ
    /// (comparing authentication codes with `==` leaks how many leading bytes match).
    public static func isEqual(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        let a = Array(a), b = Array(b)
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return lectern_CRYPTO_memcmp(a, b, a.count) == 0
    }
}

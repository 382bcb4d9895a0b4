import CLecternCrypto

/// PBKDF2 (RFC 8018) key derivation with an HMAC, computed by OpenSSL.
public enum PBKDF2 {
    /// Derives `keyLength` bytes from `password` and `salt`.
    ///
    /// - Parameters:
    ///   - password: the password's bytes, as the format encodes them (WinZip AES: UTF-8).
    ///   - digest: the hash of the HMAC (WinZip AES uses SHA-1).
    public static func deriveKey(
        password: some Collection<UInt8>, salt: some Collection<UInt8>,
        iterations: Int, keyLength: Int, digest: Digest.Algorithm = .sha1
    ) throws(CryptoError) -> [UInt8] {
        guard iterations > 0, iterations <= Int(Int32.max) else { throw .invalidInput("invalid PBKDF2 iteration count") }
        guard keyLength > 0, keyLength <= 1 << 16 else { throw .invalidInput("invalid PBKDF2 key length") }
        // OpenSSL reads the password as `char`: reinterpret the bytes rather than re-encode them.
        let password = Array(password).map { CChar(bitPattern: $0) }
        let salt = Array(salt)
        guard password.count <= Int(Int32.max), salt.count <= Int(Int32.max) else { throw .invalidInput("input too long") }
        var output = [UInt8](repeating: 0, count: keyLength)
        let status = password.withUnsafeBufferPointer { pass in
            salt.withUnsafeBufferPointer { salt in
                lectern_PKCS5_PBKDF2_HMAC(pass.baseAddress, Int32(pass.count), salt.baseAddress, Int32(salt.count),
                                  Int32(iterations), digest.evp, Int32(keyLength), &output)
            }
        }
        guard status == 1 else { throw .library(lastOpenSSLError()) }
        return output
    }
}

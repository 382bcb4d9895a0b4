import CLecternCrypto

/// Cryptographically secure random bytes from OpenSSL.
public func secureRandomBytes(_ count: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    _ = lectern_RAND_bytes(&bytes, Int32(count))
    return bytes
}

import CLecternCrypto

/// A message digest computed by OpenSSL, incrementally or in one call.
public struct Digest: ~Copyable {
    /// The supported algorithms.
    public enum Algorithm: Sendable {
        case sha1, sha256
        /// For identifiers other programs compute with it (KOReader's document ids), never for security.
        case md5

        var evp: OpaquePointer? {
            switch self {
            case .md5: lectern_EVP_md5()
            case .sha1: lectern_EVP_sha1()
            case .sha256: lectern_EVP_sha256()
            }
        }
    }

    private let context: OpaquePointer

    /// Starts a digest.
    public init(_ algorithm: Algorithm) {
        context = lectern_EVP_MD_CTX_new()
        lectern_EVP_DigestInit_ex(context, algorithm.evp, nil)
    }

    deinit { lectern_EVP_MD_CTX_free(context) }

    /// Adds bytes to the digest.
    public mutating func update(_ bytes: some Collection<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            lectern_EVP_DigestUpdate(context, buffer.baseAddress, buffer.count)
        }.map { _ in () }
        if done == nil {
            Array(bytes).withUnsafeBufferPointer { _ = lectern_EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
        }
    }

    /// Finishes and returns the digest.
    public consuming func finalize() -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        lectern_EVP_DigestFinal_ex(context, &output, &length)
        return Array(output[0..<Int(length)])
    }

    /// The SHA-256 of `bytes`.
    public static func sha256(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var digest = Digest(.sha256)
        digest.update(bytes)
        return digest.finalize()
    }

    /// The MD5 of `bytes` (identifiers only: MD5 protects nothing).
    public static func md5(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var digest = Digest(.md5)
        digest.update(bytes)
        return digest.finalize()
    }

    /// The SHA-1 of `bytes`.
    public static func sha1(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var digest = Digest(.sha1)
        digest.update(bytes)
        return digest.finalize()
    }
}

extension Collection<UInt8> {
    /// Lower-case hexadecimal.
    public var hexString: String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(count * 2)
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

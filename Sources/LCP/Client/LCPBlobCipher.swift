import LibCrypto

/// The `IV‖AES-256-CBC(ciphertext)` blobs of LCP (content key, key check, user fields,
/// resources), with XML-Encryption block padding: the filler is random and only the last
/// byte says how many bytes to drop (1…16). It is not PKCS#7, so OpenSSL's padding check is
/// off and the other pad bytes are never looked at (LCP §4, lcp.md §3.1).
enum LCPBlobCipher {
    /// Why a blob did not decrypt.
    enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// Shorter than an IV and one block.
        case tooShort(Int)
        /// Not a whole number of 16-byte blocks.
        case notBlockAligned(Int)
        /// The last byte is not a pad length 1…16: a wrong key, or data that is not this
        /// blob.
        case badPadding(UInt8)
        case crypto(String)

        var description: String {
            switch self {
            case .tooShort(let length): "encrypted data too short (\(length) bytes)"
            case .notBlockAligned(let length): "encrypted data is not a whole number of blocks (\(length) bytes)"
            case .badPadding(let byte): "invalid padding (last byte \(byte))"
            case .crypto(let reason): reason
            }
        }
    }

    /// Decrypts `blob` with `key` and removes its padding.
    static func decrypt(_ blob: some Collection<UInt8>, key: [UInt8]) throws(Failure) -> [UInt8] {
        let bytes = Array(blob)
        guard bytes.count >= 32 else { throw .tooShort(bytes.count) }
        guard bytes.count % 16 == 0 else { throw .notBlockAligned(bytes.count) }
        var plaintext: [UInt8]
        do {
            plaintext = try AESCBC.decrypt(key: key, iv: bytes[0..<16], ciphertext: bytes[16...])
        } catch {
            throw .crypto(error.description)
        }
        try stripPadding(&plaintext)
        return plaintext
    }

    /// Removes the padding whose length the last byte gives.
    static func stripPadding(_ plaintext: inout [UInt8]) throws(Failure) {
        let pad = try paddingLength(of: plaintext)
        plaintext.removeLast(pad)
    }

    /// The padding length the last byte gives, checked against 1…16 and the data length.
    static func paddingLength(of plaintext: some BidirectionalCollection<UInt8>) throws(Failure) -> Int {
        guard let last = plaintext.last else { throw .tooShort(0) }
        guard (1...16).contains(last), Int(last) <= plaintext.count else { throw .badPadding(last) }
        return Int(last)
    }
}

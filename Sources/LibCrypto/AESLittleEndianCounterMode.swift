import CLecternCrypto

/// AES in counter mode with a **little-endian** block counter: the variant of Brian Gladman's
/// `fileenc` that WinZip AES (AE-1, AE-2) uses, where the 16-byte counter block holds the
/// block number in little-endian order (the first block is number 1, not 0).
///
/// OpenSSL's `EVP_aes_*_ctr` increments the counter as a big-endian number, so the key
/// stream is made here from AES-ECB encryptions of the counter blocks. Counter mode is its
/// own inverse: ``apply(key:to:firstCounter:)`` both encrypts and decrypts. Any block can be
/// reached directly (`firstCounter`), so a caller may decrypt a range without the bytes
/// before it.
public enum AESLittleEndianCounterMode {
    /// XORs `data` with the key stream of `key` (16, 24 or 32 bytes: AES-128/192/256),
    /// starting with the counter block `firstCounter`.
    public static func apply(key: some Collection<UInt8>, to data: inout [UInt8], firstCounter: UInt64 = 1) throws(CryptoError) {
        let key = Array(key)
        let cipher: OpaquePointer? = switch key.count {
        case 16: lectern_EVP_aes_128_ecb()
        case 24: lectern_EVP_aes_192_ecb()
        case 32: lectern_EVP_aes_256_ecb()
        default: throw .invalidKey
        }
        guard !data.isEmpty else { return }
        guard let context = lectern_EVP_CIPHER_CTX_new() else { throw .library(lastOpenSSLError()) }
        defer { lectern_EVP_CIPHER_CTX_free(context) }
        guard lectern_EVP_EncryptInit_ex(context, cipher, nil, key, nil) == 1 else { throw .library(lastOpenSSLError()) }
        lectern_EVP_CIPHER_CTX_set_padding(context, 0)

        let blocksPerChunk = 4096
        var counters = [UInt8](repeating: 0, count: blocksPerChunk * 16)
        var stream = [UInt8](repeating: 0, count: blocksPerChunk * 16 + 16)
        var low = firstCounter, high: UInt64 = 0
        var offset = 0
        while offset < data.count {
            let blocks = min(blocksPerChunk, (data.count - offset + 15) / 16)
            // Counter blocks: a 128-bit little-endian number (low word first).
            counters.withUnsafeMutableBytes { buffer in
                for block in 0..<blocks {
                    buffer.storeBytes(of: low.littleEndian, toByteOffset: block * 16, as: UInt64.self)
                    buffer.storeBytes(of: high.littleEndian, toByteOffset: block * 16 + 8, as: UInt64.self)
                    let (next, overflow) = low.addingReportingOverflow(1)
                    low = next
                    if overflow { high &+= 1 }
                }
            }
            var written: Int32 = 0
            guard lectern_EVP_EncryptUpdate(context, &stream, &written, counters, Int32(blocks * 16)) == 1,
                  Int(written) == blocks * 16 else { throw .library(lastOpenSSLError()) }
            let count = min(blocks * 16, data.count - offset)
            data.withUnsafeMutableBufferPointer { output in
                stream.withUnsafeBufferPointer { keyStream in
                    for index in 0..<count { output[offset + index] ^= keyStream[index] }
                }
            }
            offset += count
        }
    }
}

import FoundationEssentials
import Shared
import Synchronization

/// An LCP resource stored uncompressed, read by ranges: only the AES-CBC blocks a read covers
/// are decrypted, with the ciphertext block before them as IV (lcp.md §4.3). The plaintext
/// size comes from the padding of the last block, never from `OriginalLength`.
final class CBCLCPResource: Resource {
    private let resource: any Resource
    /// The same resource behind a read window, for the data reads (which overlap by a block).
    private let buffered: BufferingResource
    private let href: String
    private let decryptBlocks: @Sendable (Data) -> Data?
    private let size = Mutex<ResourceResult<UInt64>?>(nil)

    /// - Parameter decryptBlocks: decrypts `IV‖blocks` without removing padding.
    init(_ resource: any Resource, href: String, decryptBlocks: @escaping @Sendable (Data) -> Data?) {
        self.resource = resource
        buffered = BufferingResource(resource)
        self.href = href
        self.decryptBlocks = decryptBlocks
    }

    var link: Link { resource.link }

    /// The plaintext size: ciphertext length − IV − the padding the last block gives.
    var length: ResourceResult<UInt64> {
        if let known = size.withLock({ $0 }) { return known }
        let computed = computeLength()
        // Transient failures (closed archive, network) are not remembered.
        if case .success = computed { size.withLock { $0 = computed } }
        return computed
    }

    private func computeLength() -> ResourceResult<UInt64> {
        resource.length.flatMap { cipherLength -> ResourceResult<UInt64> in
            if let problem = LCPCiphertextCheck.problem(withLength: cipherLength) {
                return .failure(LCPCiphertextCheck.failure(href, problem))
            }
            return resource.read(range: 0..<16).flatMap { head -> ResourceResult<UInt64> in
                if LCPCiphertextCheck.looksLikePlaintext(head) {
                    return .failure(LCPCiphertextCheck.failure(href, "declared encrypted but stored in clear"))
                }
                return resource.read(range: (cipherLength - 32)..<cipherLength).flatMap { tail -> ResourceResult<UInt64> in
                    guard tail.count == 32 else {
                        return .failure(LCPCiphertextCheck.failure(href, "encrypted data is shorter than its declared length"))
                    }
                    guard let block = decryptBlocks(tail), let pad = block.last else {
                        return .failure(LCPCiphertextCheck.failure(href, "cannot decrypt the last block"))
                    }
                    guard (1...16).contains(pad) else {
                        return .failure(LCPCiphertextCheck.failure(href, "invalid padding (last byte \(pad)); damaged data or wrong key"))
                    }
                    return .success(cipherLength - 16 - UInt64(pad))
                }
            }
        }
    }

    func read(range: Range<UInt64>?) -> ResourceResult<Data> {
        length.flatMap { size in
            let wanted = (range ?? 0..<size).clamped(toLength: size)
            guard !wanted.isEmpty else { return .success(Data()) }
            let firstBlock = wanted.lowerBound / 16
            let lastBlock = (wanted.upperBound - 1) / 16
            // From the block before the first one (its IV) to the end of the last one.
            let cipherRange = (firstBlock * 16)..<((lastBlock + 2) * 16)
            return buffered.read(range: cipherRange).flatMap { ciphertext in
                guard UInt64(ciphertext.count) == UInt64(cipherRange.count) else {
                    return .failure(LCPCiphertextCheck.failure(href, "encrypted data is shorter than its declared length"))
                }
                guard let plaintext = decryptBlocks(ciphertext) else {
                    return .failure(LCPCiphertextCheck.failure(href, "decryption failed"))
                }
                let offset = Int(wanted.lowerBound - firstBlock * 16)
                let start = plaintext.startIndex + offset
                return .success(Data(plaintext[start..<(start + Int(wanted.count))]))
            }
        }
    }

    func close() { buffered.close() }
}

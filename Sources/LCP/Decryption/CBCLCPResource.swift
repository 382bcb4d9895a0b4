import FoundationEssentials
import Shared
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An LCP resource stored uncompressed, read by ranges: only the AES-CBC blocks a read covers
/// are decrypted, with the ciphertext block before them as IV (lcp.md §4.3). The plaintext
/// size comes from the padding of the last block, never from `OriginalLength`.
final class CBCLCPResource: Resource {
    private let resource: any Resource
    /// The same resource behind a read window, for the data reads (which overlap by a block).
    private let buffered: BufferingResource
    private let href: String
    private let decryptBlocks: @Sendable (Data) -> Data?
    private let blockDecryptor: (@Sendable ([UInt8]) -> (any LCPBlockDecryptor)?)?
    private let size = Mutex<ResourceResult<UInt64>?>(nil)

    /// Reads at least this long are decrypted chunk by chunk into their final buffer.
    static let largeRead: UInt64 = 1 << 20
    /// The ciphertext read at a time then (small enough to stay in the processor's cache).
    static let chunk: UInt64 = 1 << 20

    /// - Parameters:
    ///   - decryptBlocks: decrypts `IV‖blocks` without removing padding.
    ///   - blockDecryptor: a chained decryptor from an IV, for large reads (nil: none).
    init(_ resource: any Resource, href: String, decryptBlocks: @escaping @Sendable (Data) -> Data?,
         blockDecryptor: (@Sendable ([UInt8]) -> (any LCPBlockDecryptor)?)? = nil) {
        self.resource = resource
        buffered = BufferingResource(resource)
        self.href = href
        self.decryptBlocks = decryptBlocks
        self.blockDecryptor = blockDecryptor
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
            if wanted.count >= Self.largeRead, let blockDecryptor {
                return readLarge(wanted, firstBlock: firstBlock, lastBlock: lastBlock, makeDecryptor: blockDecryptor)
            }
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

    /// A large read: the ciphertext is read in chunks and each chunk decrypted straight into
    /// one buffer of the plaintext's size, which the returned data then owns (no copies of
    /// the whole). The read window is bypassed: nothing of it would be reused.
    private func readLarge(_ wanted: Range<UInt64>, firstBlock: UInt64, lastBlock: UInt64,
                           makeDecryptor: @Sendable ([UInt8]) -> (any LCPBlockDecryptor)?) -> ResourceResult<Data> {
        let ivOffset = firstBlock * 16
        let blocks = (ivOffset + 16)..<((lastBlock + 2) * 16)
        let iv: Data
        switch resource.read(range: ivOffset..<(ivOffset + 16)) {
        case .success(let data) where data.count == 16: iv = data
        case .success: return .failure(LCPCiphertextCheck.failure(href, "encrypted data is shorter than its declared length"))
        case .failure(let error): return .failure(error)
        }
        guard let decryptor = makeDecryptor(Array(iv)) else {
            return .failure(LCPCiphertextCheck.failure(href, "decryption failed"))
        }
        let total = Int(blocks.count)
        guard let buffer = PlaintextBuffer(count: total) else {
            return .failure(LCPCiphertextCheck.failure(href, "not enough memory for \(total) bytes"))
        }
        let output = buffer.base
        var offset = 0
        while offset < total {
            let lower = blocks.lowerBound + UInt64(offset)
            let upper = min(lower + Self.chunk, blocks.upperBound)
            let failure: ResourceError? = switch resource.read(range: lower..<upper) {
            case .success(let chunk) where UInt64(chunk.count) == upper - lower:
                chunk.withUnsafeBytes { decryptor.decrypt($0, into: output + offset) }
                    ? nil : LCPCiphertextCheck.failure(href, "decryption failed")
            case .success: LCPCiphertextCheck.failure(href, "encrypted data is shorter than its declared length")
            case .failure(let error): error
            }
            if let failure { return .failure(failure) }
            offset += Int(upper - lower)
        }
        // The plaintext of block `firstBlock` starts the buffer; the padding is never returned
        // (`wanted` was clamped to the size).
        let start = Int(wanted.lowerBound - firstBlock * 16)
        return .success(Data(bytesNoCopy: output + start, count: Int(wanted.count), deallocator: .custom { _, _ in withExtendedLifetime(buffer) {} }))
    }

    func close() { buffered.close() }
}

/// The memory a large decrypted read is written to. Large buffers are mapped directly and
/// marked for transparent huge pages: a 100 MB plaintext then costs about fifty page faults
/// instead of twenty-five thousand (the kernel's page-fault handling was most of the cost of
/// decrypting a large resource besides AES itself).
///
/// A class that frees its memory when the last reference goes (the `Data` handed out keeps it in
/// its deallocator), so no path can free it twice or forget it. `@unchecked Sendable` because of
/// the raw pointer: one decryption writes the memory before the buffer is shared, and it is only
/// read afterwards.
final class PlaintextBuffer: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    private let mapping: UnsafeMutableRawPointer?
    private let mappedLength: Int

    private static let hugePage = 2 << 20

    init?(count: Int) {
        if count >= 4 * Self.hugePage {
            // Over-map by a huge page so that the buffer can start on a huge-page boundary.
            let length = count + Self.hugePage
            let address = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            guard let address, address != MAP_FAILED else { return nil }
            let aligned = (Int(bitPattern: address) + Self.hugePage - 1) / Self.hugePage * Self.hugePage
            base = UnsafeMutableRawPointer(bitPattern: aligned)!
            _ = madvise(base, count, MADV_HUGEPAGE)
            mapping = address
            mappedLength = length
        } else {
            guard let memory = malloc(max(count, 1)) else { return nil }
            base = memory
            mapping = nil
            mappedLength = 0
        }
    }

    deinit {
        if let mapping { munmap(mapping, mappedLength) } else { free(base) }
    }
}

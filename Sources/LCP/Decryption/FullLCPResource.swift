import FoundationEssentials
import Shared
import Zlib

/// An LCP resource that cannot be read at an offset — deflated before encryption
/// (`Compression Method="8"`, `compression: deflate`), or stored in a compressed ZIP entry:
/// decrypted and inflated whole on first use, then served from memory, ranges included.
final class FullLCPResource: Resource {
    private let resource: any Resource
    private let href: String
    private let inflate: Bool
    private let originalLength: Int?
    private let maxInflatedSize: Int
    private let cache: DecryptedResourceCache
    private let decrypt: @Sendable (Data) -> Data?

    init(_ resource: any Resource, href: String, inflate: Bool, originalLength: Int?, maxInflatedSize: Int,
         cache: DecryptedResourceCache,
         decrypt: @escaping @Sendable (Data) -> Data?) {
        self.resource = resource
        self.href = href
        self.inflate = inflate
        self.originalLength = originalLength
        self.maxInflatedSize = maxInflatedSize
        self.cache = cache
        self.decrypt = decrypt
    }

    var link: Link { resource.link }

    private var content: ResourceResult<Data> {
        if let cached = cache.get(href) { return .success(cached) }
        let result = resource.read().flatMap(plaintext)
        if case .success(let data) = result { cache.put(href, data) }
        return result
    }

    private func plaintext(_ ciphertext: Data) -> ResourceResult<Data> {
        if let problem = LCPCiphertextCheck.problem(withLength: UInt64(ciphertext.count)) {
            return .failure(LCPCiphertextCheck.failure(href, problem))
        }
        if LCPCiphertextCheck.looksLikePlaintext(ciphertext.prefix(16)) {
            return .failure(LCPCiphertextCheck.failure(href, "declared encrypted but stored in clear"))
        }
        guard let decrypted = decrypt(ciphertext) else {
            return .failure(LCPCiphertextCheck.failure(href, "invalid padding; damaged data or wrong key"))
        }
        guard inflate else { return .success(decrypted) }
        do {
            // OriginalLength is only a size hint: a lying one changes nothing but the allocation.
            let hint = originalLength.map { min($0, maxInflatedSize) }
            let inflated = try Inflater.inflate(decrypted, wrapping: .raw, sizeHint: hint, maxOutput: maxInflatedSize)
            return .success(Data(inflated))
        } catch {
            return .failure(LCPCiphertextCheck.failure(href, "cannot inflate the decrypted data: \(error)"))
        }
    }

    var length: ResourceResult<UInt64> { content.map { UInt64($0.count) } }

    func read(range: Range<UInt64>?) -> ResourceResult<Data> {
        content.map { $0.slice(range) }
    }

    func close() { resource.close() }
}

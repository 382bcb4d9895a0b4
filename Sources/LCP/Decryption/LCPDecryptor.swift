import FoundationEssentials
import Shared

/// Decrypts the LCP-encrypted resources of a publication, as a ``ResourceTransformer`` placed
/// under the font deobfuscation (LCP decrypts first).
///
/// A resource is LCP-encrypted when its link's `properties.encrypted` has the LCP scheme
/// (the EPUB parser attaches it from `encryption.xml`; Readium packages carry it in
/// `manifest.json`). Other resources pass through untouched.
///
/// - Resources stored uncompressed are decrypted block by block: a range read decrypts only
///   the blocks it covers (block *i*'s IV is ciphertext block *i*−1), over a read buffer.
/// - Resources deflated before encryption, or whose ZIP entry is compressed, cannot be read
///   at an offset: they are decrypted (and inflated) whole once, and kept in a small
///   in-memory cache (never on disk: LCP §7.5).
///
/// When the license is not unlocked, encrypted resources answer `forbidden` with the reason.
public struct LCPDecryptor: Sendable {
    /// The scheme of LCP-encrypted resources in `properties.encrypted`.
    public static let scheme = "http://readium.org/2014/01/lcp"

    private enum Keys: Sendable {
        case unlocked(client: any LCPClient, context: any LCPClientContext, supportsRanges: Bool)
        case locked(LCPError)
    }

    private let keys: Keys
    private let cache: DecryptedResourceCache
    /// Resources that inflate to more than this are refused (a "zip bomb" guard).
    public let maxInflatedSize: Int

    /// A decryptor with the keys of an unlocked license.
    public init(client: any LCPClient, context: any LCPClientContext, cache: DecryptedResourceCache = DecryptedResourceCache(),
                maxInflatedSize: Int = 256 << 20) {
        // A client that cannot decrypt bare blocks (a licensed library behind the seam) gets
        // whole-resource decryption.
        let supportsRanges = client.decryptBlocks(data: Data(count: 32), using: context) != nil
        keys = .unlocked(client: client, context: context, supportsRanges: supportsRanges)
        self.cache = cache
        self.maxInflatedSize = maxInflatedSize
    }

    /// A decryptor for a locked license: encrypted resources fail with `error`.
    public init(lockedBy error: LCPError) {
        keys = .locked(error)
        cache = DecryptedResourceCache(maxEntries: 0)
        maxInflatedSize = 0
    }

    /// The transformer to give a ``TransformingFetcher``.
    public var transformer: ResourceTransformer {
        let decryptor = self
        return { decryptor.decrypt($0) }
    }

    /// The resource decrypted, or unchanged when it is not LCP-encrypted.
    public func decrypt(_ resource: any Resource) -> any Resource {
        let link = resource.link
        guard let encryption = link.encryption, encryption.scheme == Self.scheme else { return resource }
        let href = link.path ?? link.href
        switch keys {
        case .locked(let error):
            return FailureResource(link: link, error: .forbidden(error))
        case .unlocked(let client, let context, let supportsRanges):
            guard encryption.algorithm == LCPAlgorithm.aes256CBC else {
                return FailureResource(link: link, error: .other(LCPError.decryption(
                    href: href, reason: "unsupported algorithm \(encryption.algorithm)")))
            }
            let deflated: Bool
            switch encryption.compression {
            case nil, "none", "0": deflated = false
            case "deflate", "8": deflated = true
            case let other?:
                return FailureResource(link: link, error: .other(LCPError.decryption(href: href, reason: "unsupported compression \(other)")))
            }
            let seekable = !((resource as? ArchiveEntryResource).map { !$0.entry.isStored } ?? false)
            if deflated || !seekable || !supportsRanges {
                return FullLCPResource(resource, href: href, inflate: deflated, originalLength: encryption.originalLength,
                                       maxInflatedSize: maxInflatedSize, cache: cache) { client.decrypt(data: $0, using: context) }
            }
            return CBCLCPResource(resource, href: href, decryptBlocks: { client.decryptBlocks(data: $0, using: context) },
                                  blockDecryptor: { client.blockDecryptor(iv: $0, using: context) })
        }
    }
}

/// Checks shared by the two decrypting resources.
enum LCPCiphertextCheck {
    /// Why `length` bytes cannot be an `IV‖ciphertext` blob, or nil.
    static func problem(withLength length: UInt64) -> String? {
        if length < 32 { return "encrypted data too short (\(length) bytes)" }
        if length % 16 != 0 { return "encrypted data is not a whole number of AES blocks (\(length) bytes); truncated or not encrypted" }
        return nil
    }

    /// Whether data declared encrypted starts like a plain document (XML, HTML, CSS, PDF,
    /// images, audio, ZIP): a resource stored in clear although `encryption.xml` lists it.
    /// Random ciphertext starts so by chance with probability below 2⁻³².
    static func looksLikePlaintext(_ head: some Collection<UInt8>) -> Bool {
        let bytes = Array(head.prefix(16))
        let signatures: [[UInt8]] = [
            Array("<?xml".utf8), Array("<!DOCTYPE".utf8), Array("<html".utf8), Array("<svg".utf8),
            Array("@charset".utf8), Array("%PDF-".utf8), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A], [0xFF, 0xD8, 0xFF, 0xE0],
            [0xFF, 0xD8, 0xFF, 0xE1], Array("GIF8".utf8), Array("ID3".utf8) + [0x03], Array("ID3".utf8) + [0x04],
            Array("OggS".utf8), Array("fLaC".utf8), Array("PK".utf8) + [0x03, 0x04], Array("wOFF".utf8), Array("wOF2".utf8),
            Array("OTTO".utf8) + [0x00],
        ]
        var trimmed = bytes[...]
        if trimmed.starts(with: [0xEF, 0xBB, 0xBF]) { trimmed = trimmed.dropFirst(3) }
        return signatures.contains { trimmed.starts(with: $0) }
    }

    static func failure(_ href: String, _ reason: String) -> ResourceError {
        .other(LCPError.decryption(href: href, reason: reason))
    }
}

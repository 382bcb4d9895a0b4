import FoundationEssentials
import LibCrypto
import Shared

/// Undoes the font obfuscation of EPUB OCF (IDPF) and of Adobe, as a resource transformer.
///
/// It must sit above any decryption: a protection decrypts, then this deobfuscates (OCF
/// §obfuscation: obfuscation is applied before encryption). The resource to deobfuscate is
/// recognised from the encryption in its link's properties, or else from `encryption.xml`.
public struct EPUBDeobfuscator: Sendable {
    /// The publication's unique identifier, from which the keys derive.
    public let identifier: String
    private let encryptions: [String: Encryption]
    private let idpfKey: [UInt8]?
    private let adobeKey: [UInt8]?

    /// Bytes XORed at the start of a resource, per algorithm.
    static let idpfObfuscatedLength = 1040
    static let adobeObfuscatedLength = 1024

    /// - Parameters:
    ///   - identifier: the unique identifier of the publication (`package@unique-identifier`).
    ///   - encryptions: the encryptions of `encryption.xml` by package path, for resources
    ///     requested with a link that does not carry them.
    public init(identifier: String, encryptions: [String: Encryption] = [:]) {
        self.identifier = identifier
        self.encryptions = encryptions
        idpfKey = Self.idpfKey(identifier)
        adobeKey = Self.adobeKey(identifier)
    }

    /// Whether `encryptions` obfuscate any resource: without, there is nothing to undo.
    public static func obfuscates(_ encryptions: [String: Encryption]) -> Bool {
        encryptions.values.contains {
            $0.algorithm == Encryption.Algorithm.idpfFontObfuscation || $0.algorithm == Encryption.Algorithm.adobeFontObfuscation
        }
    }

    /// The transformer to give a ``TransformingFetcher``.
    public var transformer: ResourceTransformer {
        let deobfuscator = self
        return { deobfuscator.deobfuscate($0) }
    }

    /// The resource deobfuscated, or unchanged when it is not obfuscated (or no key exists,
    /// e.g. the identifier is empty: the font is then served as stored and will not load,
    /// which readers survive by falling back to another font).
    public func deobfuscate(_ resource: any Resource) -> any Resource {
        let link = resource.link
        guard let encryption = link.properties.encryption ?? link.path.flatMap({ encryptions[$0] }) else {
            return resource
        }
        switch encryption.algorithm {
        case Encryption.Algorithm.idpfFontObfuscation:
            guard let idpfKey else { return resource }
            return DeobfuscatedResource(resource, key: idpfKey, obfuscatedLength: Self.idpfObfuscatedLength)
        case Encryption.Algorithm.adobeFontObfuscation:
            guard let adobeKey else { return resource }
            return DeobfuscatedResource(resource, key: adobeKey, obfuscatedLength: Self.adobeObfuscatedLength)
        default:
            return resource
        }
    }

    /// OCF 3.3 §4.4.3: SHA-1 of the unique identifier with the XML white space characters
    /// (U+0020, U+0009, U+000D, U+000A) removed — only those, not every Unicode space.
    static func idpfKey(_ identifier: String) -> [UInt8]? {
        let stripped = identifier.utf8.filter { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D && $0 != 0x0A }
        guard !stripped.isEmpty else { return nil }
        return Digest.sha1(stripped)
    }

    /// Adobe's key: the 16 bytes of the UUID of the identifier (`urn:uuid:` and dashes
    /// removed, hex-decoded). Nil when the identifier holds no UUID.
    static func adobeKey(_ identifier: String) -> [UInt8]? {
        var hex = identifier.trimmed
        if hex.lowercased().hasPrefix("urn:uuid:") { hex.removeFirst("urn:uuid:".count) }
        hex.removeAll { $0 == "-" }
        let digits = Array(hex.utf8)
        guard digits.count == 32 else { return nil }
        var key: [UInt8] = []
        key.reserveCapacity(16)
        for index in stride(from: 0, to: 32, by: 2) {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            key.append(high << 4 | low)
        }
        return key
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// A resource whose first `obfuscatedLength` bytes are XORed with a repeated key. Works on
/// ranges: the key byte of a content byte depends on its absolute offset in the resource
/// (offset mod key length), not on its position in the chunk read — the mistake of Readium's
/// streaming implementation.
final class DeobfuscatedResource: ForwardingResource {
    let resource: any Resource
    private let key: [UInt8]
    private let obfuscatedLength: Int

    init(_ resource: any Resource, key: [UInt8], obfuscatedLength: Int) {
        precondition(!key.isEmpty)
        self.key = key
        self.obfuscatedLength = obfuscatedLength
        self.resource = resource
    }

    func read(range: Range<UInt64>?) -> ResourceResult<Data> {
        let requestedStart = range?.lowerBound ?? 0
        return resource.read(range: range).flatMap { data in
            // The child clamps ranges to its content: data starts at `requestedStart` unless
            // that lies past the end, in which case it is empty.
            guard requestedStart < UInt64(obfuscatedLength), !data.isEmpty else { return .success(data) }
            var output = Data(data)
            let start = Int(requestedStart)
            let end = min(obfuscatedLength - start, output.count)
            output.withUnsafeMutableBytes { buffer in
                for index in 0..<end {
                    buffer[index] ^= key[(start + index) % key.count]
                }
            }
            return .success(output)
        }
    }
}

import Foundation
import LCP
import LibCrypto
import Shared
import Testing
import TestSupport

/// Damaged encrypted resources give a clear error for that resource only — never garbage,
/// never a crash — and ranged reads decrypt only what they need.
@Suite struct DamagedResourceTests {
    let license: ForgedLicense
    let client: BasicProfileLCPClient
    let context: any LCPClientContext

    init() throws {
        license = try LicenseForge.make(LicenseSpec())
        client = BasicProfileLCPClient(trust: try LCPTrustSettings(additionalAnchorsPEM: [TestPKI.shared.caPEM]))
        context = try client.createContext(jsonLicense: license.text, hashedPassphrase: BasicProfileLCPClient.userKey(passphrase: "open sesame"),
                                           pemCrl: nil)
    }

    func link(_ href: String, compression: String? = nil, originalLength: Int? = nil) -> Link {
        var link = Link(href: href)
        link.properties.encryption = Encryption(algorithm: LCPAlgorithm.aes256CBC, compression: compression,
                                                originalLength: originalLength, profile: LCPProfile.basic, scheme: LCPDecryptor.scheme)
        return link
    }

    func decrypt(_ bytes: [UInt8], _ link: Link, maxInflatedSize: Int = 256 << 20) -> any Resource {
        LCPDecryptor(client: client, context: context, maxInflatedSize: maxInflatedSize)
            .decrypt(BytesResource(link: link, bytes: Data(bytes)))
    }

    /// The decryption error of reading `resource`, with its message.
    func decryptionFailure(_ resource: any Resource, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        switch resource.read() {
        case .success(let data):
            Issue.record("read \(data.count) bytes instead of failing", sourceLocation: sourceLocation)
            return nil
        case .failure(.other(let error as LCPError)):
            guard case .decryption(let href, let reason) = error else {
                Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
                return nil
            }
            #expect(error.userMessage == "Part of this book could not be decrypted (\(href)).", sourceLocation: sourceLocation)
            return reason
        case .failure(let error):
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    func encrypted(_ plaintext: [UInt8]) throws -> [UInt8] { try LicenseForge.encrypt(plaintext, key: license.contentKey) }

    @Test(arguments: [false, true])
    func truncatedCiphertextIsRefused(deflated: Bool) throws {
        var bytes = try encrypted(Array(PackageForge.text(5000)))
        bytes.removeLast(5)
        let reason = decryptionFailure(decrypt(bytes, link("OEBPS/c.xhtml", compression: deflated ? "deflate" : nil)))
        #expect(reason?.contains("whole number of AES blocks") == true)
    }

    @Test(arguments: [false, true])
    func ciphertextShorterThanTwoBlocksIsRefused(deflated: Bool) throws {
        let reason = decryptionFailure(decrypt(LicenseForge.randomBytes(16), link("OEBPS/c.xhtml", compression: deflated ? "deflate" : nil)))
        #expect(reason?.contains("too short") == true)
    }

    /// The last plaintext byte must be a pad length 1…16.
    @Test(arguments: [UInt8(0), 17, 0x20, 0xFF])
    func invalidPaddingIsRefused(lastByte: UInt8) throws {
        var plaintext = LicenseForge.randomBytes(63)
        plaintext.append(lastByte)
        let iv = LicenseForge.randomBytes(16)
        let bytes = iv + (try AESCBC.encrypt(key: license.contentKey, iv: iv, plaintext: plaintext))
        let stored = decrypt(bytes, link("OEBPS/c.xhtml"))
        #expect(decryptionFailure(stored)?.contains("padding") == true)
        guard case .failure = stored.length else {
            Issue.record("the length of badly padded data must fail too")
            return
        }
        #expect(decryptionFailure(decrypt(bytes, link("OEBPS/c.xhtml", compression: "deflate")))?.contains("padding") == true)
    }

    /// `OriginalLength` is a hint: the true content comes back whatever it says.
    @Test(arguments: [0, 10, 13_877, 1 << 40])
    func lyingOriginalLengthChangesNothing(declared: Int) throws {
        let plaintext = PackageForge.text(13_877)
        let bytes = try encrypted(Array(try Shell.rawDeflate(plaintext)))
        let resource = decrypt(bytes, link("OEBPS/c.xhtml", compression: "deflate", originalLength: declared))
        #expect(try resource.read().get() == plaintext)
        #expect(try resource.length.get() == UInt64(plaintext.count))
        let stored = decrypt(try encrypted(Array(plaintext)), link("OEBPS/s.xhtml", originalLength: declared))
        #expect(try stored.length.get() == UInt64(plaintext.count))
        #expect(try stored.read(range: 13_800..<20_000).get() == plaintext.subdata(in: 13_800..<plaintext.count))
    }

    @Test(arguments: [
        "<?xml version=\"1.0\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p>plain text in clear, 64 bytes long!!!</p></body></html>",
        "%PDF-1.4\n1 0 obj << >> endobj trailer << >> %%EOF padding to 64 bytes.",
    ])
    func resourceDeclaredEncryptedButStoredInClearIsRefused(_ text: String) throws {
        var bytes = Array(text.utf8)
        bytes += [UInt8](repeating: 0x20, count: (16 - bytes.count % 16) % 16)
        #expect(decryptionFailure(decrypt(bytes, link("OEBPS/c.xhtml")))?.contains("stored in clear") == true)
        #expect(decryptionFailure(decrypt(bytes, link("OEBPS/c.xhtml", compression: "deflate")))?.contains("stored in clear") == true)
    }

    @Test func dataThatIsNotDeflatedIsRefusedWhenDeclaredDeflated() throws {
        // Random bytes are sometimes a valid (fixed-Huffman) deflate stream: start with a block
        // header of the reserved type 3 so that the test does not depend on chance.
        var plain = LicenseForge.randomBytes(3000)
        plain[0] = 0b111
        let bytes = try encrypted(plain)
        #expect(decryptionFailure(decrypt(bytes, link("OEBPS/c.xhtml", compression: "deflate")))?.contains("inflate") == true)
    }

    @Test func deflateBombIsStoppedAtTheBound() throws {
        let bomb = try Shell.rawDeflate(Data(count: 4 << 20))
        #expect(bomb.count < 10_000)
        let bytes = try encrypted(Array(bomb))
        #expect(decryptionFailure(decrypt(bytes, link("OEBPS/c.xhtml", compression: "deflate"), maxInflatedSize: 1 << 20))?
            .contains("expands beyond") == true)
        #expect(try decrypt(bytes, link("OEBPS/c.xhtml", compression: "deflate")).read().get() == Data(count: 4 << 20))
    }

    @Test func unknownAlgorithmOrCompressionIsRefused() throws {
        var other = link("OEBPS/c.xhtml")
        other.properties.encryption?.algorithm = "http://www.w3.org/2001/04/xmlenc#aes128-cbc"
        let bytes = try encrypted(Array(PackageForge.text(100)))
        #expect(decryptionFailure(decrypt(bytes, other))?.contains("unsupported algorithm") == true)
        #expect(decryptionFailure(decrypt(bytes, link("OEBPS/c.xhtml", compression: "bzip2")))?.contains("unsupported compression") == true)
    }

    @Test func resourcesThatAreNotLCPEncryptedPassThrough() {
        let data = Data("clear".utf8)
        var obfuscated = Link(href: "font.otf")
        obfuscated.properties.encryption = Encryption(algorithm: Encryption.Algorithm.idpfFontObfuscation)
        for link in [Link(href: "a.xhtml"), obfuscated] {
            let resource = BytesResource(link: link, bytes: data)
            #expect(LCPDecryptor(client: client, context: context).decrypt(resource) === resource)
        }
    }

    /// A ranged read of a stored resource reads a window around the range, not the resource.
    @Test func rangedReadDecryptsOnlyTheBlocksItNeeds() throws {
        let plaintext = Data(LicenseForge.randomBytes(1 << 20))
        let recorder = RecordingResource(BytesResource(link: link("audio.mp3"), bytes: Data(try encrypted(Array(plaintext)))))
        let resource = LCPDecryptor(client: client, context: context).decrypt(recorder)
        let range: Range<UInt64> = 700_001..<700_011
        #expect(try resource.read(range: range).get() == plaintext.subdata(in: 700_001..<700_011))
        // The length (two reads of the first and last blocks) and one window.
        #expect(recorder.bytesRead < 80_000)
        #expect(!recorder.readWhole)
        // A following read in the same window does not go back to the source.
        let before = recorder.readCount
        #expect(try resource.read(range: 700_020..<700_100).get() == plaintext.subdata(in: 700_020..<700_100))
        #expect(recorder.readCount == before)
    }
}

/// Records the reads made on a resource.
final class RecordingResource: Resource, @unchecked Sendable {
    let base: any Resource
    private let lock = NSLock()
    private var reads: [Range<UInt64>?] = []

    init(_ base: any Resource) { self.base = base }

    var link: Link { base.link }
    var length: ResourceResult<UInt64> { base.length }
    var bytesRead: UInt64 { lock.withLock { reads.reduce(0) { $0 + ($1.map { UInt64($0.count) } ?? 0) } } }
    var readWhole: Bool { lock.withLock { reads.contains { $0 == nil } } }
    var readCount: Int { lock.withLock { reads.count } }

    func read(range: Range<UInt64>?) -> ResourceResult<Data> {
        lock.withLock { reads.append(range) }
        return base.read(range: range)
    }

    func close() { base.close() }
}

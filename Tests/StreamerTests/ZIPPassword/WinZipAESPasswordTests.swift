import Foundation
import LibZip
import Shared
@testable import Streamer
import Testing
import TestSupport

/// Archives encrypted with WinZip AES by 7-Zip (AE-2, which libzip 1.7.3 cannot read past
/// 19 bytes), and AE-1 variants made by patching them.
@Suite struct WinZipAESPasswordTests {
    static let sentinel = "ZIP-PASSWORD-SENTINEL"

    /// The small EPUB plus entries around libzip's 20-byte AE-2 limit, read through
    /// `Publication.get` (they are not in the manifest).
    static var smallEPUBWithOddSizes: [PasswordArchives.Entry] {
        PasswordArchives.smallEPUB() + [
            .init("extra/empty.txt", Data()),
            .init("extra/tiny.txt", "tiny"),
            .init("extra/nineteen.txt", String(repeating: "n", count: 19)),
            .init("extra/twenty.txt", String(repeating: "t", count: 20)),
        ]
    }

    func chapterText(_ publication: Publication) throws -> String {
        let chapter = try #require(publication.readingOrder.first)
        return String(decoding: try publication.get(chapter).read().get(), as: UTF8.self)
    }

    @Test(arguments: [128, 192, 256], [false, true])
    func sevenZipAESOpensAndMatchesTheOriginal(bits: Int, stored: Bool) async throws {
        let path = PasswordArchives.path("wasteland-aes\(bits).epub")
        try PasswordArchives.winZipAES(try PasswordArchives.entries(ofSample: "epub/idpf-wasteland.epub"),
                                       password: "secret", bits: bits, stored: stored, to: path)
        let archive = try ZipArchive(path: path)
        #expect(archive.entries.filter { !$0.isDirectory }.allSatisfy { $0.encryption == .winZipAES(keyLength: bits / 8) })
        archive.close()

        let original = try await PasswordOpening.open(Fixtures.sample("epub/idpf-wasteland.epub"))
        defer { original.close() }
        let publication = try await PasswordOpening.open(path, credentials: "secret")
        defer { publication.close() }
        #expect(publication.metadata.title == "The Waste Land")
        PasswordOpening.expectSameContent(publication, as: original)

        let error = try await PasswordOpening.openingError(path, credentials: "secreT")
        #expect(PasswordOpening.incorrectCredentialsMessage(error) == "incorrect password for this password-protected ZIP archive")
    }

    @Test(arguments: [false, true])
    func entriesAroundLibzipsTwentyByteLimitAndEmptyOnesDecrypt(stored: Bool) async throws {
        let path = PasswordArchives.path("odd-sizes.epub")
        let entries = Self.smallEPUBWithOddSizes
        try PasswordArchives.winZipAES(entries, password: "secret", stored: stored, to: path)
        let publication = try await PasswordOpening.open(path, credentials: "secret")
        defer { publication.close() }
        for entry in entries {
            #expect(try publication.get(Href.fromPath(entry.name)).read().get() == entry.data, "\(entry.name)")
        }
    }

    /// 7-Zip refuses non-ASCII ZIP passwords: the entries are re-encrypted under a UTF-8
    /// password by the `openssl` tool, an implementation independent of Lectern's.
    @Test(arguments: [128, 256])
    func nonASCIIPasswordIsTriedAsUTF8(bits: Int) async throws {
        let password = "mot de passe éèà 密码"
        let entries = Self.smallEPUBWithOddSizes
        let path = PasswordArchives.path("utf8-aes.epub")
        try PasswordArchives.winZipAES(entries, password: "placeholder", bits: bits, stored: true, to: path)
        try OpenSSLWinZipAESEncoder.reencrypt(path, entries: entries, keyLength: bits / 8, password: password)

        let publication = try await PasswordOpening.open(path, credentials: password)
        defer { publication.close() }
        #expect(try chapterText(publication).contains(Self.sentinel))
        for entry in entries {
            #expect(try publication.get(Href.fromPath(entry.name)).read().get() == entry.data, "\(entry.name)")
        }
        let error = try await PasswordOpening.openingError(path, credentials: "placeholder")
        #expect(PasswordOpening.incorrectCredentialsMessage(error) != nil)
    }

    @Test func partlyEncryptedArchiveServesClearAndEncryptedEntries() async throws {
        let entries = PasswordArchives.smallEPUB().map { entry in
            var entry = entry
            entry.encrypted = entry.name != "mimetype"
            return entry
        }
        let path = PasswordArchives.path("partly-aes.epub")
        try PasswordArchives.winZipAES(entries, password: "secret", to: path)
        let archive = try ZipArchive(path: path)
        #expect(archive.entry(at: "mimetype")?.isEncrypted == false)
        #expect(archive.entry(at: "OPS/c1.xhtml")?.isEncrypted == true)
        archive.close()

        let error = try await PasswordOpening.openingError(path)
        #expect(PasswordOpening.incorrectCredentialsMessage(error)?.contains("password is required") == true)
        let publication = try await PasswordOpening.open(path, credentials: "secret")
        defer { publication.close() }
        #expect(publication.metadata.title == "Secret Book")
        #expect(try chapterText(publication).contains(Self.sentinel))
    }

    /// AE-1 keeps the plaintext CRC in the headers; made here from a 7-Zip archive by setting
    /// the vendor version to 1 and writing the real CRCs.
    func ae1Archive(corruptCRC: Bool = false) throws -> (path: String, entries: [PasswordArchives.Entry]) {
        let entries = PasswordArchives.smallEPUB()
        let path = PasswordArchives.path("ae1.epub")
        try PasswordArchives.winZipAES(entries, password: "secret", to: path)
        var patcher = try ZipPatcher(path: path)
        for entry in entries {
            try patcher.patchAESExtraField(entry.name, version: 1)
            let crc = CRC32.checksum(entry.data)
            try patcher.setCRC(entry.name, corruptCRC && entry.name == "OPS/c1.xhtml" ? crc ^ 1 : crc)
        }
        try patcher.write(to: path)
        return (path, entries)
    }

    @Test func ae1EntriesWithTheirCRCDecrypt() async throws {
        let (path, _) = try ae1Archive()
        let publication = try await PasswordOpening.open(path, credentials: "secret")
        defer { publication.close() }
        #expect(try chapterText(publication).contains(Self.sentinel))
    }

    @Test func ae1EntryWithAWrongCRCIsDamaged() async throws {
        let (path, _) = try ae1Archive(corruptCRC: true)
        let publication = try await PasswordOpening.open(path, credentials: "secret")
        defer { publication.close() }
        let chapter = try #require(publication.readingOrder.first)
        guard case .failure(.other(let cause)) = publication.get(chapter).read() else {
            Issue.record("a CRC mismatch must fail the read")
            return
        }
        #expect(userMessage(of: cause).contains("CRC-32"))
    }

    /// A changed authentication code, or changed ciphertext, is damage: the verifier still
    /// matches, so it is never reported as a wrong password.
    @Test(arguments: [0, 30])
    func tamperedEntryIsDamagedNotAWrongPassword(bytesBeforeEnd: Int) async throws {
        let path = PasswordArchives.path("tampered.epub")
        try PasswordArchives.winZipAES(PasswordArchives.smallEPUB(), password: "secret", to: path)
        var patcher = try ZipPatcher(path: path)
        try patcher.flipStoredByte("OPS/c1.xhtml", fromEnd: bytesBeforeEnd)
        try patcher.write(to: path)

        let publication = try await PasswordOpening.open(path, credentials: "secret")
        defer { publication.close() }
        let chapter = try #require(publication.readingOrder.first)
        guard case .failure(.other(let cause)) = publication.get(chapter).read() else {
            Issue.record("a tampered entry must fail as damaged")
            return
        }
        #expect(userMessage(of: cause).contains("authentication code"))
        #expect(!userMessage(of: cause).contains("password"))
    }

    @Test func verifierTellsAWrongPasswordFromTheRightOne() throws {
        let path = Fixtures.sample("protected-zip/derived-wasteland-winzip-aes256-secret.epub")
        let archive = try ZipArchive(path: path)
        defer { archive.close() }
        let entry = try #require(archive.entry(at: "EPUB/wasteland.css"))
        let aes = try WinZipAESEntry(raw: Array(try archive.readRaw(entry)), keyLength: 32)
        #expect(try aes.accepts(password: Array("secret".utf8)))
        #expect(try !aes.accepts(password: Array("Secret".utf8)))
        #expect(throws: WinZipAESError.self) { try aes.decrypt(password: Array("Secret".utf8)) }
        let reader = WinZipAESEntryReader(archive: archive, password: Array("wrong".utf8))
        do throws(WinZipAESError) {
            _ = try reader.read(entry)
            Issue.record("a wrong password must not decrypt")
        } catch {
            guard case .wrongPassword = error else {
                Issue.record("expected wrongPassword, got \(error)")
                return
            }
            #expect(error.resourceError.httpStatus == 403)
        }
    }

    @Test func hugeDeclaredSizeIsRefusedBeforeReading() async throws {
        let path = PasswordArchives.path("huge-aes.epub")
        try PasswordArchives.winZipAES(PasswordArchives.smallEPUB(), password: "secret", to: path)
        var patcher = try ZipPatcher(path: path)
        try patcher.setUncompressedSize("OPS/c1.xhtml", 0xFFFF_FFF0)
        try patcher.write(to: path)

        let publication = try await PasswordOpening.open(path, credentials: "secret")
        defer { publication.close() }
        let chapter = try #require(publication.readingOrder.first)
        guard case .failure(let error) = publication.get(chapter).read() else {
            Issue.record("a 4 GB entry must be refused")
            return
        }
        #expect("\(error)".contains("implausible size"))
    }

    @Test func declaredSizeBeyondWhatDeflateCanProduceIsRefused() throws {
        // 1 KB of compressed data cannot expand to 100 MB.
        let entry = ZipEntry(index: 0, path: "x", size: 100 << 20, compressedSize: 1024, compressionMethod: 8,
                             encryptionMethod: 0x0103, crc: 0)
        #expect(throws: WinZipAESError.self) { try WinZipAESEntryReader.checkDeclaredSizes(entry, keyLength: 32) }
    }

    @Test func entryShorterThanItsHeaderIsTruncatedAndShortenedOneIsDamaged() async throws {
        let path = PasswordArchives.path("short-aes.cbz")
        let pages: [PasswordArchives.Entry] = [
            .init("001.png", Data(repeating: 1, count: 700)), .init("002.png", Data(repeating: 2, count: 800)),
            .init("003.png", Data(repeating: 3, count: 900)),
        ]
        try PasswordArchives.winZipAES(pages, password: "secret", to: path)
        var patcher = try ZipPatcher(path: path)
        try patcher.setCompressedSize("002.png", 20)
        let third = patcher.dataRange(of: try patcher.record("003.png"))
        try patcher.setCompressedSize("003.png", UInt32(third.count - 5))
        try patcher.write(to: path)

        let publication = try await PasswordOpening.open(path, credentials: "secret")
        defer { publication.close() }
        #expect(try publication.get("001.png").read().get() == pages[0].data)
        guard case .failure(let short) = publication.get("002.png").read(),
              case .failure(let shortened) = publication.get("003.png").read() else {
            Issue.record("truncated entries must fail")
            return
        }
        #expect("\(short)".contains("too short"))
        #expect("\(shortened)".contains("authentication code"))
    }

    @Test func bogusStrengthInTheCentralDirectoryIsAClearError() throws {
        let path = PasswordArchives.path("bogus-strength.epub")
        try PasswordArchives.winZipAES(PasswordArchives.smallEPUB(), password: "secret", to: path)
        var patcher = try ZipPatcher(path: path)
        try patcher.patchAESExtraField("OPS/c1.xhtml", strength: 9)
        try patcher.write(to: path)
        // libzip refuses the whole directory.
        #expect {
            try AssetRetriever().retrieve(path: path)
        } throws: { error in
            userMessage(of: error).contains("damaged") && userMessage(of: error).contains("Encryption method not supported")
        }
    }

    @Test func bogusVendorVersionIsAClearError() throws {
        let path = PasswordArchives.path("bogus-version.epub")
        try PasswordArchives.winZipAES(PasswordArchives.smallEPUB(), password: "secret", to: path)
        var patcher = try ZipPatcher(path: path)
        try patcher.patchAESExtraField("OPS/c1.xhtml", version: 7)
        try patcher.write(to: path)
        #expect {
            try AssetRetriever().retrieve(path: path)
        } throws: { error in
            userMessage(of: error).contains("damaged")
        }
    }

    /// The central directory decides; a local header that disagrees changes nothing.
    @Test func bogusStrengthInALocalHeaderOnlyIsIgnored() async throws {
        let path = PasswordArchives.path("bogus-local.epub")
        try PasswordArchives.winZipAES(PasswordArchives.smallEPUB(), password: "secret", to: path)
        var patcher = try ZipPatcher(path: path)
        try patcher.patchAESExtraField("OPS/c1.xhtml", central: false, strength: 9)
        try patcher.write(to: path)
        let publication = try await PasswordOpening.open(path, credentials: "secret")
        defer { publication.close() }
        #expect(try chapterText(publication).contains(Self.sentinel))
    }
}

import Foundation
import LibZip
import Shared
import Streamer
import Testing
import TestSupport

/// Archives encrypted with traditional PKWARE encryption by Info-ZIP `zip -P`.
@Suite struct PKWAREPasswordTests {
    static let sentinel = "ZIP-PASSWORD-SENTINEL"

    func chapterText(_ publication: Publication) throws -> String {
        let chapter = try #require(publication.readingOrder.first)
        return String(decoding: try publication.get(chapter).read().get(), as: UTF8.self)
    }

    @Test(arguments: [false, true])
    func encryptedEPUBOpensWithItsPassword(storedContent: Bool) async throws {
        let entries = PasswordArchives.smallEPUB().map { entry in
            var entry = entry
            if storedContent { entry.stored = true }
            return entry
        }
        let path = PasswordArchives.path("book.epub")
        try PasswordArchives.pkware(entries, password: "secret", to: path)
        let publication = try await PasswordOpening.open(path, credentials: "secret")
        defer { publication.close() }
        #expect(publication.metadata.title == "Secret Book")
        #expect(try chapterText(publication).contains(Self.sentinel))
        #expect(publication.contentProtectionService?.scheme == "zip-password")
    }

    @Test func wastelandRepackedWithZipMatchesTheOriginal() async throws {
        let path = PasswordArchives.path("wasteland.epub")
        try PasswordArchives.pkware(try PasswordArchives.entries(ofSample: "epub/idpf-wasteland.epub"), password: "secret", to: path)
        let original = try await PasswordOpening.open(Fixtures.sample("epub/idpf-wasteland.epub"))
        defer { original.close() }
        let publication = try await PasswordOpening.open(path, credentials: "secret")
        defer { publication.close() }
        PasswordOpening.expectSameContent(publication, as: original)
    }

    @Test func nonASCIIPasswordIsTriedAsUTF8() async throws {
        let password = "pässwörd 日本 🔑"
        let path = PasswordArchives.path("utf8.epub")
        try PasswordArchives.pkware(PasswordArchives.smallEPUB(), password: password, to: path)
        let publication = try await PasswordOpening.open(path, credentials: password)
        defer { publication.close() }
        #expect(try chapterText(publication).contains(Self.sentinel))
        #expect(publication.credentials == password)
        // The same letters decomposed differently are other bytes, so another password.
        let error = try await PasswordOpening.openingError(path, credentials: "passwords")
        #expect(PasswordOpening.incorrectCredentialsMessage(error) != nil)
    }

    /// Old DOS and Windows tools hashed the password in the OEM code page, old Unix tools in
    /// ISO-8859-1: typing the same letters must still open them.
    @Test(arguments: [
        ("CP437", [0x84, 0x94, 0x81, 0x65, 0xE1] as [UInt8]),
        ("ISO-8859-1", [0xE4, 0xF6, 0xFC, 0x65, 0xDF] as [UInt8]),
    ])
    func legacyCodePagePasswordsOpen(_ label: String, _ bytes: [UInt8]) async throws {
        let path = PasswordArchives.path("legacy-\(label).epub")
        try PasswordArchives.pkware(PasswordArchives.smallEPUB(), password: bytes, to: path)
        let publication = try await PasswordOpening.open(path, credentials: "äöüeß")
        defer { publication.close() }
        #expect(try chapterText(publication).contains(Self.sentinel))
        #expect(publication.credentials == "äöüeß")
        let error = try await PasswordOpening.openingError(path, credentials: "äöüeS")
        #expect(PasswordOpening.incorrectCredentialsMessage(error)?.contains("incorrect password") == true)
    }

    /// Info-ZIP does not set the UTF-8 flag: names are raw bytes, here UTF-8 ones and, after
    /// patching, CP437 ones as a DOS tool would write. Neither changes the password.
    @Test func passwordWorksWithNamesNotFlaggedUTF8() async throws {
        let pages: [PasswordArchives.Entry] = [
            .init("01-é.png", Data((0..<300).map { UInt8($0 % 251) })),
            .init("02-xy.png", Data((0..<400).map { UInt8($0 % 241) })),
        ]
        let path = PasswordArchives.path("names.cbz")
        try PasswordArchives.pkware(pages, password: "secret", to: path)
        var patcher = try ZipPatcher(path: path)
        for name in ["01-é.png", "02-xy.png"] {
            #expect(patcher.u16(try patcher.record(name).central + 8) & 0x0800 == 0, "Info-ZIP left the UTF-8 flag clear")
            try patcher.clearUTF8Flag(name)
        }
        try patcher.rename("02-xy.png", to: Array("02-".utf8) + [0x82, 0x8A] + Array(".png".utf8))
        try patcher.write(to: path)

        let publication = try await PasswordOpening.open(path, credentials: "secret")
        defer { publication.close() }
        let paths = publication.readingOrder.compactMap(\.path)
        #expect(paths == ["01-é.png", "02-éè.png"])
        for (link, page) in zip(publication.readingOrder, pages) {
            #expect(try publication.get(link).read().get() == page.data, "\(link.href)")
        }
    }

    @Test func partlyEncryptedArchiveNeedsThePasswordAndServesBoth() async throws {
        // Package metadata in clear, only the chapter encrypted.
        let entries = PasswordArchives.smallEPUB().map { entry in
            var entry = entry
            entry.encrypted = entry.name == "OPS/c1.xhtml"
            return entry
        }
        let path = PasswordArchives.path("partly.epub")
        try PasswordArchives.pkware(entries, password: "secret", to: path)

        let missing = try await PasswordOpening.openingError(path)
        #expect(PasswordOpening.incorrectCredentialsMessage(missing)?.contains("password is required") == true)
        let publication = try await PasswordOpening.open(path, credentials: "secret")
        defer { publication.close() }
        #expect(publication.metadata.title == "Secret Book")
        #expect(try chapterText(publication).contains(Self.sentinel))
    }

    @Test func mimetypeEncryptedAndLastIsStillAnEPUB() async throws {
        var entries = PasswordArchives.smallEPUB()
        entries.append(entries.removeFirst())
        let path = PasswordArchives.path("mimetype-last.epub")
        try PasswordArchives.pkware(entries, password: "secret", to: path)
        #expect(try ZipArchive(path: path).entries.last?.path == "mimetype")

        let asset = try AssetRetriever().retrieve(path: path)
        #expect(asset.format.kind == .epub)
        asset.fetcher.close()
        let publication = try await PasswordOpening.open(path, credentials: "secret")
        defer { publication.close() }
        #expect(try chapterText(publication).contains(Self.sentinel))
    }

    /// An archive whose only encrypted entry is the chapter, and a password that passes its
    /// one-byte PKWARE check: libzip then decrypts garbage, which fails the CRC (or inflate).
    func checkBytePass(stored: Bool) throws -> (path: String, candidate: String) {
        let entries = PasswordArchives.smallEPUB().map { entry in
            var entry = entry
            entry.encrypted = entry.name == "OPS/c1.xhtml"
            entry.stored = stored || entry.name == "mimetype"
            return entry
        }
        let path = PasswordArchives.path("check-byte.epub")
        try PasswordArchives.pkware(entries, password: "secret", to: path)
        let archive = try ZipArchive(path: path)
        defer { archive.close() }
        let chapter = try #require(archive.entry(at: "OPS/c1.xhtml"))
        for index in 0..<20_000 {
            let candidate = "guess-\(index)"
            archive.setPassword(candidate)
            if (try? archive.read(chapter, range: 0..<1)) == nil { continue }
            // It passed the check byte: the whole entry must still be refused by libzip.
            #expect(throws: ZipError.self) { try archive.read(chapter) }
            return (path, candidate)
        }
        Issue.record("no candidate passed the check byte")
        throw ZipError.wrongPassword
    }

    @Test(arguments: [false, true])
    func passwordPassingTheCheckByteButNotTheCRCIsRefused(stored: Bool) async throws {
        let (path, candidate) = try checkBytePass(stored: stored)
        let error = try await PasswordOpening.openingError(path, credentials: candidate)
        let message = try #require(PasswordOpening.incorrectCredentialsMessage(error), "\(String(describing: error))")
        #expect(message.contains("incorrect password, or"))
        #expect(message.contains("damaged"))

        // Asked interactively, the person sees why and can try again.
        let prompt = ScriptedPrompt(["secret"])
        let publication = try await PasswordOpening.open(path, credentials: candidate, allowUserInteraction: true,
                                                         onAskCredentials: prompt.callback)
        defer { publication.close() }
        #expect(prompt.requests.first?.error?.contains("checksum") == true)
        #expect(try chapterText(publication).contains(Self.sentinel))
    }

    /// With several encrypted entries, a password passing the first probe's check byte is
    /// caught by the next one.
    @Test func checkBytePassOnOneEntryIsCaughtByAnother() async throws {
        let path = PasswordArchives.path("two.epub")
        try PasswordArchives.pkware(PasswordArchives.smallEPUB(), password: "secret", to: path)
        let archive = try ZipArchive(path: path)
        let mimetype = try #require(archive.entry(at: "mimetype"))
        let container = try #require(archive.entry(at: "META-INF/container.xml"))
        var found: String?
        for index in 0..<50_000 where found == nil {
            let candidate = "guess-\(index)"
            archive.setPassword(candidate)
            guard (try? archive.read(mimetype, range: 0..<1)) != nil else { continue }
            if case .failure(.wrongPassword) = Result(catching: { () throws(ZipError) in try archive.read(container, range: 0..<1) }) {
                found = candidate
            }
        }
        archive.close()
        let candidate = try #require(found)
        let error = try await PasswordOpening.openingError(path, credentials: candidate)
        #expect(PasswordOpening.incorrectCredentialsMessage(error) == "incorrect password for this password-protected ZIP archive")
    }

    @Test func damagedEntryWithTheRightPasswordFailsInsteadOfServingGarbage() async throws {
        let path = PasswordArchives.path("damaged.epub")
        try PasswordArchives.pkware(PasswordArchives.smallEPUB(), password: "secret", to: path)
        var patcher = try ZipPatcher(path: path)
        try patcher.flipStoredByte("OPS/c1.xhtml", at: 40)
        try patcher.write(to: path)

        let publication = try await PasswordOpening.open(path, credentials: "secret")
        defer { publication.close() }
        let chapter = try #require(publication.readingOrder.first)
        guard case .failure(let error) = publication.get(chapter).read() else {
            Issue.record("a damaged entry must not be served")
            return
        }
        #expect(error.httpStatus == 500, "\(error)")
    }

    @Test func hugeDeclaredSizeIsAClearErrorNotAnAllocation() async throws {
        let pages: [PasswordArchives.Entry] = [
            .init("001.png", Data(repeating: 1, count: 500)), .init("002.png", Data(repeating: 2, count: 600)),
        ]
        let path = PasswordArchives.path("huge.cbz")
        try PasswordArchives.pkware(pages, password: "secret", to: path)
        var patcher = try ZipPatcher(path: path)
        try patcher.setUncompressedSize("002.png", 0xFFFF_FFF0)
        try patcher.write(to: path)

        let publication = try await PasswordOpening.open(path, credentials: "secret")
        defer { publication.close() }
        #expect(try publication.get("001.png").read().get() == pages[0].data)
        guard case .failure(let error) = publication.get("002.png").read() else {
            Issue.record("a 4 GB entry must be refused")
            return
        }
        #expect("\(error)".contains("too large"))
    }

    @Test func archiveWhoseOnlyEncryptedEntryDeclaresAHugeSizeOpensWithTheCheckByte() async throws {
        let path = PasswordArchives.path("only-huge.cbz")
        try PasswordArchives.pkware([.init("001.png", Data(repeating: 1, count: 500))], password: "secret", to: path)
        var patcher = try ZipPatcher(path: path)
        try patcher.setUncompressedSize("001.png", 0xFFFF_FFF0)
        try patcher.write(to: path)
        // Too large to verify whole: the header byte decides, and the read fails clearly.
        let publication = try await PasswordOpening.open(path, credentials: "secret")
        defer { publication.close() }
        guard case .failure(let error) = publication.get("001.png").read() else {
            Issue.record("a 4 GB entry must be refused")
            return
        }
        #expect("\(error)".contains("too large"))
    }

    /// A compressed size cut short leaves the DEFLATE stream unfinished: an error. One that
    /// runs past the end of the archive still yields the right bytes (DEFLATE ends itself and
    /// the CRC matches) or an error, never anything else.
    @Test(arguments: [true, false])
    func entryWithAWrongCompressedSizeFailsOrIsRight(shorter: Bool) async throws {
        let entries = PasswordArchives.smallEPUB()
        let path = PasswordArchives.path("wrong-length.epub")
        try PasswordArchives.pkware(entries, password: "secret", to: path)
        var patcher = try ZipPatcher(path: path)
        let stored = patcher.dataRange(of: try patcher.record("OPS/c1.xhtml")).count
        try patcher.setCompressedSize("OPS/c1.xhtml", shorter ? UInt32(stored / 2) : 50_000_000)
        try patcher.write(to: path)

        let asset: Asset
        do {
            asset = try AssetRetriever().retrieve(path: path)
        } catch {
            // libzip may refuse the directory itself: a clear error too.
            #expect(userMessage(of: error).contains("damaged"), "\(userMessage(of: error))")
            return
        }
        let publication = try await PublicationOpener().open(asset: asset, allowUserInteraction: false, credentials: "secret")
        defer { publication.close() }
        let chapter = try #require(publication.readingOrder.first)
        switch publication.get(chapter).read() {
        case .success(let data):
            #expect(!shorter, "a truncated entry must not be served")
            #expect(data == entries[3].data)
        case .failure(let error):
            #expect(error.httpStatus == 500, "\(error)")
        }
    }

    @Test func truncatedArchiveIsAClearError() throws {
        let path = PasswordArchives.path("truncated.epub")
        try PasswordArchives.pkware(PasswordArchives.smallEPUB(), password: "secret", to: path)
        let bytes = Fixtures.bytes(path)
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
        #expect {
            try AssetRetriever().retrieve(path: path)
        } throws: { error in
            guard let error = error as? AssetError else { return false }
            return error.userMessage.contains("truncated")
        }
    }
}

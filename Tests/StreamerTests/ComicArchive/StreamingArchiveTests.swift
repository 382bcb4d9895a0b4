import Foundation
import LibArchive
import Testing
import TestSupport

/// RAR, 7z and tar archives through libarchive: indexed once, solid archives decoded once,
/// encryption and bombs refused with a reason.
@Suite struct StreamingArchiveTests {
    @Test func aSolidRARIsDecodedOnceWhileIndexed() throws {
        let archive = try StreamingArchive(path: ComicArchiveFixtures.rar("test_read_format_rar5_multiple_files_solid"))
        #expect(archive.isSolid)
        #expect(archive.entries.map(\.path) == ["test1.bin", "test2.bin", "test3.bin", "test4.bin"])
        // Indexing a solid RAR decodes every entry: they are kept, so no page decodes twice.
        #expect(archive.cachedBytes == 4 * 4096)
        for index in archive.entries.indices.reversed() {
            #expect(try archive.read(index).count == 4096)
        }
        #expect(archive.passCount == 1)
    }

    @Test func aNonSolidRARIsReadInOneMorePass() throws {
        let archive = try StreamingArchive(path: ComicArchiveFixtures.rar("test_read_format_rar5_multiple_files"))
        #expect(!archive.isSolid)
        #expect(archive.cachedBytes == 0)
        for index in archive.entries.indices { #expect(try archive.read(index).count == 4096) }
        #expect(archive.passCount == 2)
        let old = try StreamingArchive(path: ComicArchiveFixtures.rar("test_read_format_rar"))
        let text = try #require(old.entries.first { $0.path == "test.txt" })
        #expect(String(decoding: try old.read(text.index), as: UTF8.self) == "test text document\r\n")
    }

    @Test func aSolid7zArchiveReadInOrderOrBackwardsDecodesEachPageOnce() throws {
        let archive = try StreamingArchive(path: try ComicArchiveFixtures.sevenZip(count: 12, comicInfo: false))
        #expect(archive.isSolid)
        let pages = archive.entries.filter { !$0.isDirectory }
        #expect(pages.count == 12)
        // Jumping to the last page first decodes those before it (a solid block decodes from
        // its start): they are kept, and reading them after is no new pass.
        _ = try archive.read(pages[11].index)
        for page in pages { _ = try archive.read(page.index) }
        for page in pages.reversed() { _ = try archive.read(page.index) }
        #expect(archive.passCount == 2)
    }

    @Test func passwordProtectedRARArchivesAreRefusedNamingTheEncryption() {
        for name in ["test_read_format_rar_encryption_data"] {
            #expect(throws: ArchiveError.encrypted(format: "RAR")) {
                try StreamingArchive(path: ComicArchiveFixtures.rar(name))
            }
        }
        let message = ArchiveError.encrypted(format: "RAR").description
        #expect(message.contains("password-protected") && message.contains("cannot decrypt RAR"))
    }

    @Test func aDecompressionBombStopsAtTheEntryLimit() throws {
        let archive = try StreamingArchive(path: try ComicArchiveFixtures.sevenZipBomb(megabytes: 8),
                                           limits: ArchiveLimits(maxEntrySize: 1 << 20))
        #expect(throws: ArchiveError.entryTooLarge(path: "page1.png", limit: 1 << 20)) { try archive.read(0) }
        #expect(archive.cachedBytes == 0)
    }

    @Test func tooManyEntriesRefuseTheArchive() throws {
        let path = try ComicArchiveFixtures.tar(count: 12, comicInfo: false)
        #expect(throws: ArchiveError.tooManyEntries(limit: 10)) {
            try StreamingArchive(path: path, limits: ArchiveLimits(maxEntries: 10))
        }
    }

    @Test func truncatedAndLyingArchivesEndInAnError() throws {
        let sevenZip = try ComicArchiveFixtures.sevenZip(count: 3)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: sevenZip))
        let truncated = Fixtures.temporaryDirectory("truncated") + "/t.cb7"
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: truncated))
        #expect(throws: ArchiveError.self) { try StreamingArchive(path: truncated) }

        // A tar header claiming 8 GiB for an entry the file does not hold.
        var tar = try Data(contentsOf: URL(fileURLWithPath: try ComicArchiveFixtures.tar(count: 1, comicInfo: false)))
        let size = Array("77777777777\0".utf8)
        tar.replaceSubrange(124..<136, with: size)
        var checksum = 0
        for (offset, byte) in tar.prefix(512).enumerated() { checksum += (148..<156).contains(offset) ? 32 : Int(byte) }
        tar.replaceSubrange(148..<156, with: Array(String(format: "%06o\0 ", checksum).utf8))
        let lying = Fixtures.temporaryDirectory("lying") + "/l.cbt"
        try tar.write(to: URL(fileURLWithPath: lying))
        let outcome = Result { () throws(ArchiveError) -> Data in
            let archive = try StreamingArchive(path: lying)
            return try archive.read(0)
        }
        guard case .failure(let error) = outcome else {
            Issue.record("an entry claiming 8 GiB in a file of a few KiB was read")
            return
        }
        #expect(error == .entryTooLarge(path: "page1.png", limit: ArchiveLimits().maxEntrySize) || error.description.contains("damaged"))
    }
}

import Foundation
import LibZip
import Testing
import TestSupport
import Zlib

/// Zip bombs are refused when the archive is opened, before anything is inflated.
@Suite struct ZipBombTests {
    @Test func overlappingEntriesAreRefusedAtOpen() throws {
        let path = Fixtures.temporaryDirectory("zip-bomb") + "/overlap.zip"
        try ZipBombs.overlapping(count: 300, size: 1 << 20, to: path)
        #expect {
            try ZipArchive(path: path)
        } throws: { error in
            guard case ZipError.inconsistent(let reason) = error else { return false }
            return reason.contains("OEBPS/bomb0000.xhtml and OEBPS/bomb0001.xhtml overlap")
        }
        // The same through a random-access reader (a remote archive).
        let data = Fixtures.bytes(path)
        #expect(throws: ZipError.self) { try ZipArchive(reader: InMemoryZipReader(data: data)) }
    }

    @Test func archivesThatWouldInflateBeyondTheAllowanceAreRefused() throws {
        // 1,200 copies of 1 MiB of zeros deflated to ~1 KB each: 1.2 GiB from a 1.3 MB file.
        let path = Fixtures.temporaryDirectory("zip-bomb") + "/repeated.zip"
        try ZipBombs.repeated(count: 1200, size: 1 << 20, to: path)
        #expect {
            try ZipArchive(path: path)
        } throws: { error in
            guard case ZipError.tooMuchToInflate(let size, let limit) = error else { return false }
            return size == 1200 << 20 && limit == ZipArchive.minInflationAllowance
        }
        // Below the allowance, separate entries are read as usual.
        let fine = Fixtures.temporaryDirectory("zip-bomb") + "/fine.zip"
        try ZipBombs.repeated(count: 3, size: 1 << 20, to: fine)
        let archive = try ZipArchive(path: fine)
        #expect(archive.entries.count == 3)
        #expect(try archive.read(archive.entries[2]).count == 1 << 20)
    }

    /// A stored entry that declares 2 GiB but holds no byte made libzip 1.7 dereference a wild
    /// pointer when seeking (found by the zip-archive fuzzer): it is refused as damaged.
    @Test func aStoredEntryHoldingLessThanItDeclaresIsDamaged() throws {
        let data = Fixtures.bytes(Fixtures.path("fuzz/zip-archive/crash-c730eb4264a9ac26f18f54227fd5e6d33bdfd898"))
        let archive = try ZipArchive(reader: InMemoryZipReader(data: data))
        for entry in archive.entries where entry.isStored && !entry.isEncrypted && entry.size != entry.compressedSize {
            #expect(throws: ZipError.self) { try archive.read(entry, range: 100..<200) }
            #expect(throws: ZipError.self) { try archive.read(entry) }
        }
        #expect(archive.entries.contains { $0.isStored && $0.size != $0.compressedSize })
    }

    @Test func theSamplesAndZIP64ArchivesHaveNoOverlap() throws {
        for sample in ["epub/idpf-wasteland.epub", "cbz/swifttoolkit-test-comicinfo.cbz", "audiobook/swifttoolkit-audiotest.zab",
                       "protected-zip/derived-wasteland-winzip-aes256-secret.epub"] {
            #expect(try ZipArchive(path: Fixtures.sample(sample)).entries.count > 1, "\(sample)")
        }
        // `zip -fz` writes ZIP64 records even for small files.
        let folder = Fixtures.temporaryDirectory("zip64")
        try Data(repeating: 0x41, count: 5000).write(to: URL(fileURLWithPath: folder + "/a.txt"))
        try Data(repeating: 0x42, count: 5000).write(to: URL(fileURLWithPath: folder + "/b.txt"))
        try ZipBuilder.run("/usr/bin/zip", ["-q", "-fz", "z64.zip", "a.txt", "b.txt"], in: folder)
        let archive = try ZipArchive(path: folder + "/z64.zip")
        #expect(try archive.read(try #require(archive.entry(at: "b.txt"))) == Data(repeating: 0x42, count: 5000))
        // A self-extracting stub before the archive shifts every offset.
        try ZipBuilder.run("/usr/bin/zip", ["-q", "plain.zip", "a.txt", "b.txt"], in: folder)
        var stubbed = Data(repeating: 0x90, count: 4096)
        stubbed.append(Fixtures.bytes(folder + "/plain.zip"))
        try stubbed.write(to: URL(fileURLWithPath: folder + "/stub.zip"))
        try ZipBuilder.run("/usr/bin/zip", ["-q", "-A", "stub.zip"], in: folder)
        let stub = try ZipArchive(path: folder + "/stub.zip")
        #expect(try stub.read(try #require(stub.entry(at: "b.txt"))) == Data(repeating: 0x42, count: 5000))
    }
}

/// An archive in memory, read as a remote one would be.
struct InMemoryZipReader: ZipRandomAccessReader {
    let data: Data
    func size() throws(ZipError) -> UInt64 { UInt64(data.count) }
    func read(range: Range<UInt64>) throws(ZipError) -> Data { data.subdata(in: Int(range.lowerBound)..<Int(range.upperBound)) }
}

import Foundation
import LibZip
import Testing
import TestSupport
import Zlib

/// Text that deflates well.
func compressibleText(lines: Int) -> Data {
    Data((0..<lines).map { "Line \($0): the quick brown fox jumps over the lazy dog \($0 % 97)." }
        .joined(separator: "\n").utf8)
}

/// Reproducible bytes that do not compress.
func noise(count: Int, seed: UInt64 = 7) -> Data {
    var state = seed
    var data = Data(count: count)
    for index in 0..<count {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        data[index] = UInt8(truncatingIfNeeded: state >> 33)
    }
    return data
}

/// The `ZipError` that `body` throws, or nil when it succeeds (any other error is a test failure).
func zipError(_ body: () throws -> Any) -> ZipError? {
    do {
        _ = try body()
        return nil
    } catch let error as ZipError {
        return error
    } catch {
        Issue.record("unexpected error \(error)")
        return nil
    }
}

@Suite final class ZipArchiveTests {
    let directory = Fixtures.temporaryDirectory("zip-archive")

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// Writes files into a staging folder and runs `zip` with `options` on them, in order.
    func zip(_ files: [(String, Data)], options: [[String]], name: String = UUID().uuidString + ".zip") throws -> String {
        let staging = directory + "/staging-" + UUID().uuidString
        for (file, data) in files {
            let path = staging + "/" + file
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: path))
        }
        let archive = directory + "/" + name
        for (index, (file, _)) in files.enumerated() {
            try Command.run(["zip", "-q"] + options[min(index, options.count - 1)] + [archive, file], in: staging)
        }
        return archive
    }

    let text = compressibleText(lines: 2000)
    let stored = noise(count: 50_000)

    func plainArchive() throws -> String {
        try zip([("mimetype", Data("application/epub+zip".utf8)), ("text/z.txt", text), ("bin/a.bin", stored),
                 ("empty.txt", Data()), ("é/名前.txt", Data("名前".utf8))],
                options: [["-X", "-0"], ["-X", "-9"], ["-X", "-0"], ["-X", "-9"], ["-X", "-9"]])
    }

    @Test func entriesInOrderWithSizesAndCRC() throws {
        let archive = try ZipArchive(path: try plainArchive())
        defer { archive.close() }
        #expect(archive.entries.map(\.path) == ["mimetype", "text/z.txt", "bin/a.bin", "empty.txt", "é/名前.txt"])
        #expect(archive.entries.map(\.index) == [0, 1, 2, 3, 4])
        let z = try #require(archive.entry(at: "text/z.txt"))
        #expect(z.size == UInt64(text.count))
        #expect(z.compressionMethod == 8 && !z.isStored)
        #expect(z.compressedSize < z.size)
        #expect(z.crc == crc32(text))
        #expect(!z.isEncrypted && !z.isDirectory)
        let bin = try #require(archive.entry(at: "bin/a.bin"))
        #expect(bin.isStored && bin.compressedSize == bin.size && bin.crc == crc32(stored))
        #expect(archive.entry(at: "TEXT/z.txt") == nil)
        #expect(archive.entry(at: "/text/z.txt") == nil)
    }

    @Test func readsStoredAndDeflatedEntries() throws {
        let archive = try ZipArchive(path: try plainArchive())
        defer { archive.close() }
        #expect(try archive.read(archive.entry(at: "mimetype")!) == Data("application/epub+zip".utf8))
        #expect(try archive.read(archive.entry(at: "text/z.txt")!) == text)
        #expect(try archive.read(archive.entry(at: "bin/a.bin")!) == stored)
        #expect(try archive.read(archive.entry(at: "empty.txt")!) == Data())
        #expect(try archive.read(archive.entry(at: "é/名前.txt")!) == Data("名前".utf8))
    }

    @Test func rangedReads() throws {
        let archive = try ZipArchive(path: try plainArchive())
        defer { archive.close() }
        let z = archive.entry(at: "text/z.txt")!, bin = archive.entry(at: "bin/a.bin")!
        for (entry, content) in [(z, text), (bin, stored)] {
            let count = UInt64(content.count)
            for range in [0..<10, 5_000..<6_000, 100..<101, 40..<50, count - 3..<count + 50, count..<count + 1, 7..<7] as [Range<UInt64>] {
                let lower = Int(min(range.lowerBound, count)), upper = Int(min(range.upperBound, count))
                #expect(try archive.read(entry, range: range) == content.subdata(in: lower..<upper), "\(entry.path) \(range)")
            }
        }
    }

    @Test func directoriesAreListed() throws {
        let archive = try ZipArchive(path: Fixtures.sample("lcp/swifttoolkit-epub-lcp.epub"))
        defer { archive.close() }
        let directories = archive.entries.filter(\.isDirectory).map(\.path)
        #expect(directories == ["META-INF/", "OPS/"])
    }

    // MARK: - Passwords

    func encryptedArchive() throws -> String {
        try zip([("stored.txt", Data("stored secret text".utf8)), ("deflated.txt", text)],
                options: [["-X", "-0", "-P", "pw-Ünïcode"], ["-X", "-9", "-P", "pw-Ünïcode"]])
    }

    @Test func traditionalPKWAREPasswords() throws {
        let archive = try ZipArchive(path: try encryptedArchive())
        defer { archive.close() }
        let stored = archive.entry(at: "stored.txt")!, deflated = archive.entry(at: "deflated.txt")!
        #expect(stored.encryptionMethod == 1 && deflated.encryptionMethod == 1)
        #expect(stored.isEncrypted)
        // No password.
        #expect(zipError { try archive.read(stored) } == .passwordRequired)
        #expect(zipError { try archive.read(deflated, range: 0..<10) } == .passwordRequired)
        // A wrong password.
        archive.setPassword("wrong")
        let wrong = zipError { try archive.read(deflated) }
        #expect(wrong == .wrongPassword || wrong == .checksumMismatch)
        // The right one.
        archive.setPassword("pw-Ünïcode")
        #expect(try archive.read(stored) == Data("stored secret text".utf8))
        #expect(try archive.read(deflated) == text)
        #expect(try archive.read(deflated, range: 1_000..<1_100) == text.subdata(in: 1_000..<1_100))
        #expect(try archive.read(stored, range: 7..<13) == Data("secret".utf8))
        // Removing it again.
        archive.setPassword(nil)
        #expect(zipError { try archive.read(stored) } == .passwordRequired)
    }

    @Test func wrongPasswordsAreAlwaysRefusedCleanly() throws {
        // PKWARE's check is one byte: about one wrong password in 256 passes it and fails later.
        let archive = try ZipArchive(path: try encryptedArchive())
        defer { archive.close() }
        var passedTheCheck = 0
        for candidate in 0..<600 {
            archive.setPassword("wrong-\(candidate)")
            for entry in archive.entries {
                guard let error = zipError({ try archive.read(entry) }) else {
                    Issue.record("wrong-\(candidate) opened \(entry.path)")
                    continue
                }
                #expect(error == .wrongPassword || error == .checksumMismatch, "wrong-\(candidate) on \(entry.path): \(error)")
                if error == .checksumMismatch { passedTheCheck += 1 }
            }
        }
        #expect(passedTheCheck > 0, "some wrong password should have passed the one-byte check")
    }

    @Test func realPKWAREEncryptedEPUB() throws {
        let archive = try ZipArchive(path: Fixtures.sample("protected-zip/derived-wasteland-pkzip-secret.epub"))
        defer { archive.close() }
        let clear = try ZipArchive(path: Fixtures.sample("epub/idpf-wasteland.epub"))
        defer { clear.close() }
        let content = try #require(archive.entry(at: "EPUB/wasteland-content.xhtml"))
        #expect(content.isEncrypted)
        #expect(zipError { try archive.read(content) } == .passwordRequired)
        archive.setPassword("Secret")
        let wrong = zipError { try archive.read(content) }
        #expect(wrong == .wrongPassword || wrong == .checksumMismatch)
        archive.setPassword("secret")
        for entry in archive.entries where !entry.isDirectory {
            #expect(try archive.read(entry) == clear.read(clear.entry(at: entry.path)!), "\(entry.path)")
        }
    }

    @Test func winZipAESEntries() throws {
        let archive = try ZipArchive(path: Fixtures.sample("protected-zip/derived-wasteland-winzip-aes256-secret.epub"))
        defer { archive.close() }
        let entry = try #require(archive.entry(at: "EPUB/wasteland-content.xhtml"))
        // libzip interprets the AES extra field (0x9901) and hides it; what it says is in the entry.
        #expect(archive.extraField(0x9901, of: entry) == nil)
        #expect(entry.encryptionMethod == 0x0103) // AES-256
        #expect(entry.compressionMethod == 8) // deflated inside the encryption
        #expect(entry.crc == 0) // AE-2, as 7-Zip writes it
        #expect(entry.size == 49_975)
        // The raw data holds the 16-byte salt, the 2-byte verifier, the data and a 10-byte MAC.
        let raw = try archive.readRaw(entry)
        #expect(raw.count == Int(entry.compressedSize))
        #expect(raw.count > 16 + 2 + 10)
        #expect(zipError { try archive.read(entry) } == .passwordRequired)
    }

    @Test func extraFieldsOfPlainEntries() throws {
        // Without -X, Info-ZIP writes the extended timestamp (0x5455) and Unix (0x7875) fields.
        let path = try zip([("a.txt", Data("A".utf8))], options: [["-9"]])
        let archive = try ZipArchive(path: path)
        defer { archive.close() }
        let entry = archive.entries[0]
        let timestamp = try #require(archive.extraField(0x5455, of: entry))
        #expect(timestamp.count >= 5)
        #expect(timestamp[0] & 1 == 1) // modification time present
        #expect(archive.extraField(0x9901, of: entry) == nil)
        archive.close()
        #expect(archive.extraField(0x5455, of: entry) == nil)
    }

    @Test func readRaw() throws {
        let archive = try ZipArchive(path: try plainArchive())
        defer { archive.close() }
        let bin = archive.entry(at: "bin/a.bin")!, z = archive.entry(at: "text/z.txt")!
        #expect(try archive.readRaw(bin) == stored)
        let raw = try archive.readRaw(z)
        #expect(raw.count == Int(z.compressedSize))
        #expect(try Inflater.inflate(raw, wrapping: .raw) == Array(text))
        let encrypted = try ZipArchive(path: try encryptedArchive())
        defer { encrypted.close() }
        let secret = encrypted.entry(at: "stored.txt")!
        // Encrypted data is returned as stored, with its 12-byte encryption header, no password needed.
        #expect(try encrypted.readRaw(secret).count == Int(secret.compressedSize))
        #expect(secret.compressedSize == secret.size + 12)
    }

    // MARK: - Hostile archives

    @Test func entryInflatingBeyondItsDeclaredSizeIsTooLarge() throws {
        let zeros = Data(count: 5_000_000)
        let path = try zip([("bomb.bin", zeros)], options: [["-X", "-9"]])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try ZipSurgery.setUncompressedSize(1000, of: "bomb.bin", in: &bytes)
        try bytes.write(to: URL(fileURLWithPath: path))
        let archive = try ZipArchive(path: path)
        defer { archive.close() }
        let entry = archive.entries[0]
        #expect(entry.size == 1000)
        let error = zipError { try archive.read(entry) }
        #expect(error == .largerThanDeclared(1000))
        #expect(error?.description == "an entry expands to more than the 1000 bytes it declares")
        // A range stays within what the entry declares.
        #expect(try archive.read(entry, range: 0..<100_000).count == 1000)
    }

    @Test func entryDeclaringGigabytesIsRefusedBeforeReading() throws {
        let path = try zip([("huge.bin", Data(count: 100_000))], options: [["-X", "-9"]])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // A lie Deflate cannot produce (3.75 GB from a few hundred bytes) costs no more than
        // what the bytes inflate to: the archive opens, and the entry is refused when read.
        try ZipSurgery.setUncompressedSize(0xF000_0000, of: "huge.bin", in: &bytes)
        try bytes.write(to: URL(fileURLWithPath: path))
        let archive = try ZipArchive(path: path)
        defer { archive.close() }
        let entry = archive.entries[0]
        #expect(entry.size == 0xF000_0000)
        #expect(entry.size > ZipArchive.maxWholeEntrySize)
        #expect(zipError { try archive.read(entry) } == .tooLarge(0xF000_0000))
        // Ranged reads are bounded by the range; the real data ends early.
        #expect(try archive.read(entry, range: 0..<4096) == Data(count: 4096))
        let beyond = try? archive.read(entry, range: 200_000..<200_010)
        #expect(beyond == nil || beyond == Data())
        // A range as large as the lie is refused instead of allocated.
        #expect(zipError { try archive.read(entry, range: 0..<UInt64.max) } == .tooLarge(0xF000_0000))
    }

    @Test func entryDeclaringHundredsOfMegabytesWithLittleDataIsInconsistent() throws {
        // Below the whole-read limit, so the read is attempted: it must fail on the missing data
        // (growing its buffer with what arrives, not with what is declared).
        let path = try zip([("liar.bin", Data(count: 100_000))], options: [["-X", "-9"]])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try ZipSurgery.setUncompressedSize(500_000_000, of: "liar.bin", in: &bytes)
        try bytes.write(to: URL(fileURLWithPath: path))
        let archive = try ZipArchive(path: path)
        defer { archive.close() }
        let error = try #require(zipError { try archive.read(archive.entries[0]) })
        #expect(error.description.hasPrefix("damaged ZIP archive"))
    }

    @Test func entryShorterThanDeclaredIsInconsistent() throws {
        let path = try zip([("short.txt", text)], options: [["-X", "-9"]])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try ZipSurgery.setUncompressedSize(UInt32(text.count + 10), of: "short.txt", in: &bytes)
        try bytes.write(to: URL(fileURLWithPath: path))
        let archive = try ZipArchive(path: path)
        defer { archive.close() }
        let error = try #require(zipError { try archive.read(archive.entries[0]) })
        #expect(error == .inconsistent("short.txt is shorter than declared") || error == .checksumMismatch
            || error.description.contains("damaged"))
    }

    @Test func corruptedEntriesFailTheirChecks() throws {
        let path = try zip([("s.bin", stored), ("d.txt", text)], options: [["-X", "-0"], ["-X", "-9"]])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try ZipSurgery.corrupt("s.bin", at: 25_000, in: &bytes)
        try ZipSurgery.corrupt("d.txt", at: 100, count: 20, in: &bytes)
        try bytes.write(to: URL(fileURLWithPath: path))
        let archive = try ZipArchive(path: path)
        defer { archive.close() }
        #expect(zipError { try archive.read(archive.entry(at: "s.bin")!) } == .checksumMismatch)
        let deflated = try #require(zipError { try archive.read(archive.entry(at: "d.txt")!) })
        #expect(deflated == .checksumMismatch || deflated.description.hasPrefix("damaged ZIP archive"))
        // A declared CRC that lies is caught too.
        var lying = try Data(contentsOf: URL(fileURLWithPath: try plainArchive()))
        try ZipSurgery.setCRC(0xDEAD_BEEF, of: "mimetype", in: &lying)
        let lyingPath = directory + "/lying-crc.zip"
        try lying.write(to: URL(fileURLWithPath: lyingPath))
        let lyingArchive = try ZipArchive(path: lyingPath)
        defer { lyingArchive.close() }
        #expect(zipError { try lyingArchive.read(lyingArchive.entries[0]) } == .checksumMismatch)
    }

    @Test func truncatedArchivesAreRefused() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: try plainArchive()))
        for length in [bytes.count - 1, bytes.count - 10, bytes.count - 22, bytes.count / 2, 100, 4, 1] {
            let path = directory + "/truncated-\(length).zip"
            try bytes.prefix(length).write(to: URL(fileURLWithPath: path))
            do {
                let archive = try ZipArchive(path: path)
                archive.close()
                Issue.record("an archive truncated to \(length) bytes opened")
            } catch {
                #expect(error == .notAnArchive || { if case .inconsistent = error { true } else { false } }(),
                        "\(length): \(error)")
                #expect(!error.description.isEmpty)
            }
        }
    }

    @Test func localHeaderPointingElsewhere() throws {
        let path = try plainArchive()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let location = try ZipSurgery.locate("text/z.txt", in: bytes)
        // An extra field length of 65535 moves the data start beyond the real data.
        bytes[location.localHeader + 28] = 0xFF
        bytes[location.localHeader + 29] = 0xFF
        try bytes.write(to: URL(fileURLWithPath: path))
        let archive = try ZipArchive(path: path)
        defer { archive.close() }
        #expect(zipError { try archive.read(archive.entry(at: "text/z.txt")!) } != nil)
        #expect(zipError { try archive.read(archive.entry(at: "text/z.txt")!, range: 0..<10_000) } != nil
            || (try? archive.read(archive.entry(at: "text/z.txt")!, range: 0..<10_000)) != text.prefix(10_000))
        #expect(try archive.read(archive.entry(at: "mimetype")!) == Data("application/epub+zip".utf8))
    }

    @Test func notArchives() throws {
        let garbage = directory + "/garbage.zip"
        try Data("not a zip at all, only some text to read".utf8).write(to: URL(fileURLWithPath: garbage))
        #expect(zipError { try ZipArchive(path: garbage) } == .notAnArchive)
        let missing = zipError { try ZipArchive(path: directory + "/missing.zip") }
        #expect({ if case .cannotOpen = missing { true } else { false } }())
        let folder = zipError { try ZipArchive(path: directory) }
        #expect(folder != nil)
        let empty = directory + "/empty.zip"
        try Data().write(to: URL(fileURLWithPath: empty))
        if let archive = try? ZipArchive(path: empty) {
            #expect(archive.entries.isEmpty) // libzip reads an empty file as an empty archive
        }
    }

    @Test func readsAfterCloseFail() throws {
        let archive = try ZipArchive(path: try plainArchive())
        let entry = archive.entry(at: "text/z.txt")!
        #expect(try archive.read(entry, range: 0..<5).count == 5) // a cursor is open
        archive.close()
        #expect(zipError { try archive.read(entry) } == .closed)
        #expect(zipError { try archive.read(entry, range: 5..<10) } == .closed)
        #expect(zipError { try archive.read(archive.entry(at: "bin/a.bin")!, range: 0..<10) } == .closed)
        #expect(zipError { try archive.readRaw(entry) } == .closed)
        archive.setPassword("x") // harmless
        archive.close()
    }

    @Test func errorsHaveMessages() {
        #expect(ZipError.checksumMismatch.description.contains("wrong password or damaged"))
        #expect(ZipError.tooLarge(12).description.contains("12"))
        #expect(ZipError.notAnArchive.description == "not a ZIP archive")
    }
}

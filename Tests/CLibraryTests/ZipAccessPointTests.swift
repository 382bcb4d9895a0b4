import Foundation
import Synchronization
@testable import LibZip
import Testing
import TestSupport

/// Text of `count` bytes that deflates about threefold and never repeats for long: words drawn
/// from a small vocabulary by a fixed pseudo-random sequence.
func wordSalad(count: Int, seed: UInt64 = 28) -> Data {
    let words = ["the", "river", "mountain", "quietly", "ran", "under", "a", "pale", "lantern", "of",
                 "evening", "when", "Arjuna", "spoke", "to", "Krishna", "and", "chariot", "bow", "arrow",
                 "kingdom", "dharma", "war", "brothers", "forest", "exile", "dice", "queen", "oath", "sun"]
        .map { Array($0.utf8) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count + 16)
    var state = seed
    while bytes.count < count {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        bytes += words[Int(state >> 59) % words.count]
        bytes.append(state & 0x0F00_0000 == 0 ? UInt8(ascii: "\n") : UInt8(ascii: " "))
    }
    return Data(bytes[0..<count])
}

/// Archives with one long deflated entry (clear and PKWARE-encrypted), made once for the suite.
struct LongEntryFixture: Sendable {
    let directory: String
    let clear: String
    let encrypted: String
    let text: Data
    static let name = "OEBPS/long.xhtml"
    static let password = "long secret"
    static let size = 6 << 20

    static let shared: LongEntryFixture = {
        let directory = Fixtures.temporaryDirectory("zip-access-points")
        let text = wordSalad(count: size)
        let staging = directory + "/staging"
        try! FileManager.default.createDirectory(atPath: staging + "/OEBPS", withIntermediateDirectories: true)
        try! text.write(to: URL(fileURLWithPath: staging + "/" + name))
        try! Data("small".utf8).write(to: URL(fileURLWithPath: staging + "/small.txt"))
        try! Command.run(["zip", "-X", "-q", "-6", directory + "/clear.zip", "small.txt", name], in: staging)
        try! Command.run(["zip", "-X", "-q", "-6", "-P", password, directory + "/encrypted.zip", name], in: staging)
        return LongEntryFixture(directory: directory, clear: directory + "/clear.zip",
                                encrypted: directory + "/encrypted.zip", text: text)
    }()
}

/// Ranged reads of a long deflated entry start from access points recorded by a whole read,
/// in this process or (through a store) an earlier one (#28).
@Suite final class ZipAccessPointTests {
    let fixture = LongEntryFixture.shared
    let storeDirectory = Fixtures.temporaryDirectory("zip-point-store")

    deinit { try? FileManager.default.removeItem(atPath: storeDirectory) }

    /// What a ranged read from an access point may inflate besides what it returns: a span to
    /// the point before it, a deflate block to the next boundary, and the check after the point.
    static let pointOverhead: UInt64 = (1 << 20) + (256 << 10)
    static let tail: Range<UInt64> = UInt64(LongEntryFixture.size - (64 << 10))..<UInt64(LongEntryFixture.size)

    func storeFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: storeDirectory)) ?? []).filter { $0.hasSuffix(".zran") }
    }

    /// Reads the tail of the entry from `archive`, checking its bytes and what it inflated.
    func expectCheapTail(_ archive: ZipArchive, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let entry = try #require(archive.entry(at: LongEntryFixture.name))
        let before = archive.inflatedByteCount
        let bytes = try archive.read(entry, range: Self.tail)
        let inflated = archive.inflatedByteCount - before
        #expect(bytes == fixture.text[Int(Self.tail.lowerBound)...], sourceLocation: sourceLocation)
        #expect(inflated <= Self.pointOverhead + UInt64(Self.tail.count),
                "the tail read inflated \(inflated) bytes", sourceLocation: sourceLocation)
    }

    @Test func aRangedReadAtTheEndAfterAWholeReadStartsFromAPoint() throws {
        let archive = try ZipArchive(path: fixture.clear, accessPoints: nil)
        let entry = try #require(archive.entry(at: LongEntryFixture.name))
        #expect(try archive.read(entry) == fixture.text)
        #expect(archive.accessPointCount(of: entry) >= 4)
        try expectCheapTail(archive)
        // The middle too, and a read that ends past the entry's end is clamped.
        let middle: Range<UInt64> = 3_000_001..<3_100_000
        #expect(try archive.read(entry, range: middle) == fixture.text[3_000_001..<3_100_000])
        #expect(try archive.read(entry, range: Self.tail.lowerBound..<(Self.tail.upperBound + 99)).count == Self.tail.count)
    }

    @Test func aNewArchiveReadsThePointsAWholeReadStored() throws {
        let store = ZipAccessPointStore(directory: storeDirectory)
        let first = try ZipArchive(path: fixture.clear, accessPoints: store)
        _ = try first.read(try #require(first.entry(at: LongEntryFixture.name)))
        first.close()
        #expect(storeFiles().count == 1)
        try expectCheapTail(try ZipArchive(path: fixture.clear, accessPoints: store))
    }

    /// The reader reads a long chapter as a prefix, then the rest: that stores points too.
    @Test func aPrefixThenTheRestStoresThePoints() throws {
        let store = ZipAccessPointStore(directory: storeDirectory)
        let first = try ZipArchive(path: fixture.clear, accessPoints: store)
        let entry = try #require(first.entry(at: LongEntryFixture.name))
        let prefix = try first.read(entry, range: 0..<262_144)
        let rest = try first.read(entry, range: 262_144..<entry.size)
        #expect(prefix + rest == fixture.text)
        #expect(storeFiles().count == 1)
        try expectCheapTail(try ZipArchive(path: fixture.clear, accessPoints: store))
    }

    @Test func aPrefixThenTheRestOfADamagedEntryFailsItsChecksum() throws {
        var data = try Data(contentsOf: URL(fileURLWithPath: fixture.clear))
        try ZipSurgery.setCRC(0x1234_5678, of: LongEntryFixture.name, in: &data)
        try FileManager.default.createDirectory(atPath: storeDirectory, withIntermediateDirectories: true)
        let path = storeDirectory + "/damaged.zip"
        try data.write(to: URL(fileURLWithPath: path))
        let archive = try ZipArchive(path: path, accessPoints: ZipAccessPointStore(directory: storeDirectory + "/points"))
        let entry = try #require(archive.entry(at: LongEntryFixture.name))
        _ = try archive.read(entry, range: 0..<262_144)
        #expect(zipError { try archive.read(entry, range: 262_144..<entry.size) } == .checksumMismatch)
        #expect(!FileManager.default.fileExists(atPath: storeDirectory + "/points"))
    }

    @Test func anEncryptedEntryLeavesNoPointsOnDisk() throws {
        let store = ZipAccessPointStore(directory: storeDirectory)
        let archive = try ZipArchive(path: fixture.encrypted, accessPoints: store)
        archive.setPassword(LongEntryFixture.password)
        let entry = try #require(archive.entry(at: LongEntryFixture.name))
        #expect(entry.isEncrypted)
        #expect(try archive.read(entry) == fixture.text)
        #expect(try archive.read(entry, range: Self.tail) == fixture.text[Int(Self.tail.lowerBound)...])
        #expect(archive.accessPointCount(of: entry) == 0)
        #expect(storeFiles().isEmpty)
    }

    @Test func twoRangedReadsAtOnceOnTwoThreads() throws {
        let store = ZipAccessPointStore(directory: storeDirectory)
        let first = try ZipArchive(path: fixture.clear, accessPoints: store)
        _ = try first.read(try #require(first.entry(at: LongEntryFixture.name)))
        let archive = try ZipArchive(path: fixture.clear, accessPoints: store)
        let entry = try #require(archive.entry(at: LongEntryFixture.name))
        let ranges: [Range<UInt64>] = [5_000_000..<5_300_000, 2_100_000..<2_400_000]
        let results = Mutex<[Int: Data]>([:])
        DispatchQueue.concurrentPerform(iterations: ranges.count * 4) { iteration in
            let range = ranges[iteration % ranges.count]
            let bytes = (try? archive.read(entry, range: range)) ?? Data()
            results.withLock { $0[iteration] = bytes }
        }
        for (iteration, bytes) in results.withLock({ $0 }) {
            let range = ranges[iteration % ranges.count]
            #expect(bytes == fixture.text[Int(range.lowerBound)..<Int(range.upperBound)], "read \(iteration)")
        }
        // From points each time (or a cursor already there), never from the start.
        #expect(archive.inflatedByteCount <= 8 * (Self.pointOverhead + 300_000))
        // A whole read (the reader's background pass) interleaves with ranged reads.
        let mixed = Mutex<[Int: Data]>([:])
        DispatchQueue.concurrentPerform(iterations: 3) { iteration in
            let bytes = iteration == 0 ? (try? archive.read(entry)) : (try? archive.read(entry, range: ranges[iteration - 1]))
            mixed.withLock { $0[iteration] = bytes ?? Data() }
        }
        #expect(mixed.withLock { $0[0] } == fixture.text)
        for (index, range) in ranges.enumerated() {
            #expect(mixed.withLock { $0[index + 1] } == fixture.text[Int(range.lowerBound)..<Int(range.upperBound)])
        }
    }

    @Test func aReadOfAClosedArchiveFails() throws {
        let archive = try ZipArchive(path: fixture.clear, accessPoints: nil)
        let entry = try #require(archive.entry(at: LongEntryFixture.name))
        _ = try archive.read(entry, range: 0..<1000)
        archive.close()
        #expect(zipError { try archive.read(entry, range: 1000..<2000) } == .closed)
        #expect(zipError { try archive.read(entry) } == .closed)
    }

    @Test func aDamagedLongEntryStillFailsItsWholeRead() throws {
        var data = try Data(contentsOf: URL(fileURLWithPath: fixture.clear))
        try ZipSurgery.setCRC(0x1234_5678, of: LongEntryFixture.name, in: &data)
        let path = storeDirectory + "/damaged.zip"
        try FileManager.default.createDirectory(atPath: storeDirectory, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: path))
        let store = ZipAccessPointStore(directory: storeDirectory + "/points")
        let archive = try ZipArchive(path: path, accessPoints: store)
        let entry = try #require(archive.entry(at: LongEntryFixture.name))
        #expect(zipError { try archive.read(entry) } == .checksumMismatch)
        #expect(!FileManager.default.fileExists(atPath: storeDirectory + "/points"))

        var garbled = try Data(contentsOf: URL(fileURLWithPath: fixture.clear))
        try ZipSurgery.corrupt(LongEntryFixture.name, at: 300_000, count: 64, in: &garbled)
        try garbled.write(to: URL(fileURLWithPath: path))
        let second = try ZipArchive(path: path, accessPoints: nil)
        let error = zipError { try second.read(try #require(second.entry(at: LongEntryFixture.name))) }
        switch error {
        case .inconsistent?, .checksumMismatch?, .largerThanDeclared?: break
        default: Issue.record("a garbled entry read as \(String(describing: error))")
        }
    }
}

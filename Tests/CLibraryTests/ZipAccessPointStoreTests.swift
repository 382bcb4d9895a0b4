import Foundation
@testable import LibZip
import Testing
import TestSupport

/// A store file that is missing, cut short or hostile is ignored: the read inflates from the
/// entry's start and returns the right bytes (#28).
@Suite final class ZipAccessPointStoreTests {
    let fixture = LongEntryFixture.shared
    let storeDirectory = Fixtures.temporaryDirectory("zip-point-store-hostile")

    deinit { try? FileManager.default.removeItem(atPath: storeDirectory) }

    var store: ZipAccessPointStore { ZipAccessPointStore(directory: storeDirectory) }

    /// The entry, its store key, and the points a whole read stored.
    func stored() throws -> (ZipEntry, ZipAccessPointStore.Key, DeflateAccessIndex) {
        let archive = try ZipArchive(path: fixture.clear, accessPoints: store)
        let entry = try #require(archive.entry(at: LongEntryFixture.name))
        _ = try archive.read(entry)
        let key = try #require(ZipAccessPointStore.Key(archivePath: fixture.clear, entry: entry))
        let index = try #require(store.load(key, entry: entry))
        #expect(index.points.count >= 4)
        return (entry, key, index)
    }

    /// Replaces the store file, then reads the entry's tail from a new archive: the right
    /// bytes, inflated from the start (`fellBack`) or from a point.
    func readTail(after file: [UInt8]?, key: ZipAccessPointStore.Key, fellBack: Bool = true,
                  sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = store.path(for: key)
        try? FileManager.default.removeItem(atPath: path)
        if let file { try Data(file).write(to: URL(fileURLWithPath: path)) }
        let archive = try ZipArchive(path: fixture.clear, accessPoints: store)
        let entry = try #require(archive.entry(at: LongEntryFixture.name))
        let tail = ZipAccessPointTests.tail
        #expect(try archive.read(entry, range: tail) == fixture.text[Int(tail.lowerBound)...], sourceLocation: sourceLocation)
        #expect((archive.inflatedByteCount >= tail.upperBound) == fellBack,
                "inflated \(archive.inflatedByteCount)", sourceLocation: sourceLocation)
    }

    func encode(_ points: [DeflateAccessPoint], _ entry: ZipEntry, _ key: ZipAccessPointStore.Key) -> [UInt8] {
        ZipAccessPointCoding.encode(DeflateAccessIndex(points: points, complete: true), key: key, entry: entry)
    }

    func moved(_ point: DeflateAccessPoint, compressed: UInt64? = nil, output: UInt64? = nil,
               windowLength: Int? = nil, window: [UInt8]? = nil, bits: UInt8? = nil) -> DeflateAccessPoint {
        DeflateAccessPoint(compressedOffset: compressed ?? point.compressedOffset, bits: bits ?? point.bits,
                           outputOffset: output ?? point.outputOffset, windowLength: windowLength ?? point.windowLength,
                           packedWindow: window ?? point.packedWindow, check: point.check)
    }

    @Test func theStoredFileIsReadBack() throws {
        let (entry, key, index) = try stored()
        try readTail(after: encode(index.points, entry, key), key: key, fellBack: false)
    }

    @Test func aMissingTruncatedOrGarbageFileIsIgnored() throws {
        let (entry, key, index) = try stored()
        let whole = encode(index.points, entry, key)
        try readTail(after: nil, key: key)
        try readTail(after: Array(whole[0..<(whole.count / 2)]), key: key)
        try readTail(after: Array(whole.dropLast()), key: key)
        try readTail(after: (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }, key: key)
        var flipped = whole
        flipped[whole.count / 3] ^= 0x40
        try readTail(after: flipped, key: key)
    }

    @Test func offsetsBeyondTheEntryOrOutOfOrderAreIgnored() throws {
        let (entry, key, index) = try stored()
        let last = try #require(index.points.last)
        try readTail(after: encode(index.points.dropLast() + [moved(last, compressed: entry.compressedSize + 4096)], entry, key), key: key)
        try readTail(after: encode(index.points.dropLast() + [moved(last, output: entry.size + 1)], entry, key), key: key)
        try readTail(after: encode(index.points.reversed(), entry, key), key: key)
        try readTail(after: encode(index.points.dropLast() + [moved(last, bits: 9)], entry, key), key: key)
    }

    @Test func aWindowThatLiesIsIgnored() throws {
        let (entry, key, index) = try stored()
        let last = try #require(index.points.last)
        try readTail(after: encode(index.points.dropLast() + [moved(last, windowLength: 100)], entry, key), key: key)
        try readTail(after: encode(index.points.dropLast() + [moved(last, window: [1, 2, 3, 4])], entry, key), key: key)
        // Well-formed but wrong: every byte it would yield differs, so the point's check
        // catches it, the read starts over from the entry's start, and reaching the end it
        // stores the right points in place of the bad ones.
        let zeros = [UInt8](repeating: UInt8(ascii: "x"), count: last.windowLength)
        let packed = zeros.withUnsafeBufferPointer { DeflateAccessPoint.pack($0) }
        try readTail(after: encode(index.points.dropLast() + [moved(last, window: packed)], entry, key), key: key)
        #expect(store.load(key, entry: entry)?.points == index.points)
    }

    @Test func aFileForAnotherEntryOrAnotherVersionOfTheArchiveIsIgnored() throws {
        let (entry, key, index) = try stored()
        let other = ZipEntry(index: entry.index, path: entry.path, size: entry.size, compressedSize: entry.compressedSize,
                             compressionMethod: 8, encryptionMethod: 0, crc: entry.crc ^ 1)
        let otherKey = try #require(ZipAccessPointStore.Key(archivePath: fixture.clear, entry: other))
        try readTail(after: encode(index.points, other, otherKey), key: key)
    }

    @Test func aStoreInAFolderThatDoesNotExistYetCreatesIt() throws {
        let nested = ZipAccessPointStore(directory: storeDirectory + "/cache/lectern/zip-points")
        let first = try ZipArchive(path: fixture.clear, accessPoints: nested)
        _ = try first.read(try #require(first.entry(at: LongEntryFixture.name)))
        let files = try FileManager.default.contentsOfDirectory(atPath: nested.directory)
        #expect(files.filter { $0.hasSuffix(".zran") }.count == 1)
    }

    @Test func theDirectoryKeepsItsBound() throws {
        let small = ZipAccessPointStore(directory: storeDirectory, maxTotalBytes: 1)
        try FileManager.default.createDirectory(atPath: storeDirectory, withIntermediateDirectories: true)
        for name in ["a.zran", "b.zran"] { try Data(count: 10).write(to: URL(fileURLWithPath: storeDirectory + "/" + name)) }
        let archive = try ZipArchive(path: fixture.clear, accessPoints: small)
        _ = try archive.read(try #require(archive.entry(at: LongEntryFixture.name)))
        let left = try FileManager.default.contentsOfDirectory(atPath: storeDirectory)
        #expect(!left.contains("a.zran") && !left.contains("b.zran"))
    }
}

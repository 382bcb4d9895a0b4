import Foundation
@testable import LCP
import LibZip
import Shared
import Testing
import TestSupport

/// `ZipArchive(reader:)` (a libzip source callback) and the block cache a remote package is
/// read through, on archives in memory.
@Suite struct RemoteZipReaderTests {
    /// A resource on bytes that counts the reads that reach it.
    final class CountingResource: Resource, @unchecked Sendable {
        let data: Data
        private let lock = NSLock()
        private(set) var reads: [Range<UInt64>] = []
        var failAfter: Int?

        init(_ data: Data) { self.data = data }

        var link: Link { Link(href: "memory.zip") }
        var length: ResourceResult<UInt64> { .success(UInt64(data.count)) }

        func read(range: Range<UInt64>?) -> ResourceResult<Data> {
            let wanted = (range ?? 0..<UInt64(data.count)).clamped(toLength: UInt64(data.count))
            let count = lock.withLock { reads.append(wanted); return reads.count }
            if let failAfter, count > failAfter { return .failure(.unavailable(ResourceFailure("the network went away"))) }
            return .success(data.slice(wanted))
        }

        func close() {}
    }

    func archiveData() throws -> (Data, [String: Data]) {
        var contents: [String: Data] = ["mimetype": Data("application/epub+zip".utf8)]
        for index in 0..<20 {
            contents["OEBPS/chapter\(index).xhtml"] = PackageForge.text(3_000 + index * 97, seed: "c\(index)")
        }
        contents["OEBPS/big.bin"] = Data(LicenseForge.randomBytes(300_000))
        let path = Fixtures.temporaryDirectory("remote-zip") + "/archive.zip"
        try ZipBuilder.write(contents.sorted { $0.key < $1.key }.map { name, data in
            ZipBuilder.Entry(name, data, compression: name.hasSuffix(".bin") || name == "mimetype" ? .stored : .deflated)
        }, to: path)
        return (Fixtures.bytes(path), contents)
    }

    @Test func entriesReadThroughTheCallbackMatchTheFile() throws {
        let (data, contents) = try archiveData()
        let archive = try ZipArchive(reader: ResourceZipReader(resource: CountingResource(data)))
        defer { archive.close() }
        #expect(Set(archive.entries.map(\.path)) == Set(contents.keys))
        for (name, expected) in contents {
            let entry = try #require(archive.entry(at: name))
            #expect(try archive.read(entry) == expected, "\(name)")
        }
        let big = try #require(archive.entry(at: "OEBPS/big.bin"))
        #expect(try archive.read(big, range: 250_000..<250_100) == contents["OEBPS/big.bin"]!.subdata(in: 250_000..<250_100))
    }

    /// The central directory and then one small entry cost a handful of block reads, not the
    /// whole file.
    @Test func theBlockCacheReadsOnlyWhatIsNeeded() throws {
        let (data, contents) = try archiveData()
        let source = CountingResource(data)
        let cached = BlockCachingResource(source, length: UInt64(data.count), blockSize: 16 << 10)
        let archive = try ZipArchive(reader: ResourceZipReader(resource: cached))
        defer { archive.close() }
        let entry = try #require(archive.entry(at: "OEBPS/chapter3.xhtml"))
        #expect(try archive.read(entry) == contents["OEBPS/chapter3.xhtml"])
        let fetched = source.reads.reduce(UInt64(0)) { $0 + UInt64($1.count) }
        #expect(fetched < UInt64(data.count) / 2, "\(source.reads)")
        // Every read is aligned on the blocks.
        #expect(source.reads.allSatisfy { $0.lowerBound % (16 << 10) == 0 })
        // Reading the same entry again costs nothing.
        let before = source.reads.count
        #expect(try archive.read(entry) == contents["OEBPS/chapter3.xhtml"])
        #expect(source.reads.count == before)
    }

    @Test func seededBlocksAreNotAskedAgain() throws {
        let data = Data(LicenseForge.randomBytes(100_000))
        let source = CountingResource(data)
        let cached = BlockCachingResource(source, length: 100_000, blockSize: 4096)
        cached.seed(offset: 60_000, data: data.subdata(in: 60_000..<100_000), totalLength: 100_000)
        #expect(try cached.read(range: 70_000..<99_999).get() == data.subdata(in: 70_000..<99_999))
        #expect(source.reads.isEmpty)
        // 60 000 is not on a block boundary: the block before it was not seeded.
        #expect(try cached.read(range: 59_000..<61_000).get() == data.subdata(in: 59_000..<61_000))
        #expect(source.reads == [57_344..<61_440])
    }

    @Test func aReadFailureIsReportedWithItsCause() throws {
        let (data, contents) = try archiveData()
        let source = CountingResource(data)
        let archive = try ZipArchive(reader: ResourceZipReader(resource: source))
        defer { archive.close() }
        source.failAfter = source.reads.count
        let entry = try #require(archive.entry(at: "OEBPS/chapter7.xhtml"))
        #expect(contents[entry.path] != nil)
        #expect(throws: ZipError.self) { try archive.read(entry) }
        do {
            _ = try archive.read(entry)
        } catch {
            #expect("\(error)".contains("the network went away"))
        }
    }

    @Test(arguments: [0, 10, 21, 5000])
    func truncatedOrNonZIPDataIsRefused(_ length: Int) throws {
        let (data, _) = try archiveData()
        let truncated = length == 5000 ? Data("<html>not a zip</html>".utf8) : data.prefix(length)
        #expect(throws: ZipError.self) { try ZipArchive(reader: ResourceZipReader(resource: CountingResource(Data(truncated)))) }
    }

    /// A central directory that lies (cut in the middle of the file): opening or reading fails
    /// cleanly.
    @Test func aCutArchiveFailsCleanly() throws {
        let (data, _) = try archiveData()
        var damaged = data
        damaged.replaceSubrange(1000..<5000, with: Data(count: 4000))
        if let archive = try? ZipArchive(reader: ResourceZipReader(resource: CountingResource(damaged))) {
            defer { archive.close() }
            var failures = 0
            for entry in archive.entries where (try? archive.read(entry)) == nil { failures += 1 }
            #expect(failures > 0)
        }
    }
}

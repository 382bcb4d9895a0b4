import Foundation
import ProgressSync
import Testing
import TestSupport

/// KOReader's document ids, checked against an independent computation: a few lines of Python
/// (`hashlib`) written from the description in issue #32, not from Lectern's code.
@Suite struct DocumentIDTests {
    /// The partial MD5 as the issue describes it: MD5 over the 1,024-byte samples at offsets 0
    /// and 1024·4^i (i = 0…10), stopping at the first offset at or past the end of the file.
    static let python = """
        import hashlib, sys
        for path in sys.argv[1:]:
            data = open(path, 'rb').read()
            md5 = hashlib.md5()
            for offset in [0] + [1024 * 4 ** i for i in range(11)]:
                if offset >= len(data):
                    break
                md5.update(data[offset:offset + 1024])
            print(md5.hexdigest())
        """

    /// Sizes around the sample offsets: empty, one sample, one sample and a byte, a sample
    /// cut short, large files that reach several samples.
    static let sizes = [0, 1024, 1025, 5 * 1024, 1 << 20, 30 << 20]

    @Test func partialMD5MatchesAnIndependentComputation() throws {
        let directory = Fixtures.temporaryDirectory("document-id")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var generator = SplitMix64(seed: 32)
        let paths = try Self.sizes.map { size in
            let path = directory + "/book-\(size).bin"
            // Eight bytes at a time: 30 MB byte by byte is slow in a debug build.
            var words = [UInt64](repeating: 0, count: (size + 7) / 8)
            for index in words.indices { words[index] = generator.next() }
            try words.withUnsafeBytes { try Data($0.prefix(size)).write(to: URL(fileURLWithPath: path)) }
            return path
        }
        let expected = String(decoding: try Command.python(Self.python, paths), as: UTF8.self)
            .split(separator: "\n").map(String.init)
        #expect(expected.count == paths.count)
        for (path, digest) in zip(paths, expected) {
            #expect(try KOReaderDocumentID.partialMD5(ofFileAt: path) == digest, "\(path)")
        }
        // The empty file is the MD5 of nothing, as KOReader reads no sample from it.
        #expect(expected.first == "d41d8cd98f00b204e9800998ecf8427e")
    }

    /// Bytes appended past the last whole sample (4096 + 1024) leave the id alone (why KOReader samples); a byte
    /// changed inside a sample changes it.
    @Test func onlyTheSamplesCount() throws {
        let directory = Fixtures.temporaryDirectory("document-id")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/book.bin"
        var bytes = [UInt8](repeating: 7, count: 6000)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let before = try KOReaderDocumentID.partialMD5(ofFileAt: path)
        try Data(bytes + [1, 2, 3]).write(to: URL(fileURLWithPath: path))
        #expect(try KOReaderDocumentID.partialMD5(ofFileAt: path) == before)
        bytes[4100] = 8
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try KOReaderDocumentID.partialMD5(ofFileAt: path) != before)
    }

    @Test func fileNameMatchingHashesTheNameAlone() throws {
        let expected = String(decoding: try Command.python(
            "import hashlib, sys; print(hashlib.md5(sys.argv[1].encode()).hexdigest())", ["Été à Paris.epub"]), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(KOReaderDocumentID.fileNameMD5(of: "/home/reader/books/Été à Paris.epub") == expected)
        #expect(try KOReaderDocumentID.id(ofFileAt: "/nowhere/Été à Paris.epub", matching: .fileName) == expected)
    }

    @Test func aMissingFileIsATypedError() {
        #expect(throws: DocumentIDError.self) { try KOReaderDocumentID.partialMD5(ofFileAt: "/nonexistent/book.epub") }
    }

    /// The shared sample corpus has no copy of KOReader's `leaves.epub`, whose id KOReader's own
    /// tests give; a bundled sample is checked against the independent computation instead.
    @Test func aSampleBookMatches() throws {
        let path = Fixtures.repositoryRoot + "/Samples/" + (try FileManager.default.contentsOfDirectory(
            atPath: Fixtures.repositoryRoot + "/Samples").sorted().first { $0.hasSuffix(".epub") } ?? "")
        guard path.hasSuffix(".epub") else { return }
        let expected = String(decoding: try Command.python(Self.python, [path]), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try KOReaderDocumentID.id(ofFileAt: path, matching: .binary) == expected)
    }
}

/// A small seeded generator, so that the files are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

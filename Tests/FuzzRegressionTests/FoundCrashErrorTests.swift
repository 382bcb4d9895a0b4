import Foundation
import LibZip
import Testing
import TestSupport

/// Each input a fuzzer crashed on, read by the parser it crashed and answered with the clear
/// error the fix introduced — not only "did not crash" (``FuzzRegressionTests`` replays the
/// same inputs through the harness for that).
@Suite struct FoundCrashErrorTests {
    static func fixture(_ target: String, _ name: String) -> String {
        Fixtures.repositoryRoot + "/Tests/Fixtures/fuzz/\(target)/\(name)"
    }

    /// zip-archive: a stored entry declaring 2 GiB with no byte of data made libzip seek
    /// through a wild pointer on a ranged read (whole reads stop at the size cap first); it is
    /// refused as inconsistent before libzip seeks in it.
    @Test func storedEntryWithoutItsBytesIsInconsistent() throws {
        let archive = try ZipArchive(path: Self.fixture("zip-archive", "crash-c730eb4264a9ac26f18f54227fd5e6d33bdfd898"))
        defer { archive.close() }
        let entry = try #require(archive.entries.first { $0.path == "unknown.txt" })
        #expect(entry.isStored && entry.size != entry.compressedSize)
        #expect(throws: ZipError.inconsistent("unknown.txt is stored with \(entry.compressedSize) bytes but declares \(entry.size)")) {
            try archive.read(entry, range: 0..<(64 << 10))
        }
        #expect(throws: ZipError.tooLarge(entry.size)) { try archive.read(entry) }
    }
}

import HostileInputHarness
import Testing
import TestSupport

/// A fuzzer input that still crashes, kept under `Tests/Fixtures/fuzz/<target>/` with a
/// disabled test until the bug is fixed: then the test is enabled (or the entry removed, and
/// the input is replayed with the others).
struct KnownCrash: Sendable {
    let target: HostileInput
    /// Relative to the repository root.
    let path: String

    static let all: [KnownCrash] = [zipStoredEntryWithoutData]

    /// A stored, clear entry that declares 2 GiB but holds no byte (compressed size 0).
    static let zipStoredEntryWithoutData = KnownCrash(
        target: .zipArchive, path: "Tests/Fixtures/fuzz/zip-archive/crash-c730eb4264a9ac26f18f54227fd5e6d33bdfd898")

    func replay() async {
        await target.consume([UInt8](Fixtures.bytes(Fixtures.repositoryRoot + "/" + path)))
    }
}

/// The known crashes, one disabled test each with its reason (issue #16).
struct KnownCrashTests {
    @Test(.disabled("""
        SEGV in libzip 1.7.3: ZipArchive.read(_:range:) calls zip_fseek on a stored entry whose \
        compressed size is 0 and uncompressed size is not; libzip dereferences a wild pointer \
        (LibZip is being changed in parallel: refuse stored entries whose two sizes differ)
        """))
    func zipStoredEntryWithoutData() async {
        await KnownCrash.zipStoredEntryWithoutData.replay()
    }
}

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

    /// None: the last one (a stored ZIP entry declaring 2 GiB with no byte, which made
    /// libzip seek through a wild pointer) is refused since LibZip checks stored sizes.
    static let all: [KnownCrash] = []

    func replay() async {
        await target.consume([UInt8](Fixtures.bytes(Fixtures.repositoryRoot + "/" + path)))
    }
}

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

    static let all: [KnownCrash] = []

    func replay() async {
        await target.consume([UInt8](Fixtures.bytes(Fixtures.repositoryRoot + "/" + path)))
    }
}

/// The known crashes, one disabled test each with its reason (issue #16).
struct KnownCrashTests {}

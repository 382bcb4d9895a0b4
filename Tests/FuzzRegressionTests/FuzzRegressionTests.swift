import Foundation
import HostileInputHarness
import Testing
import TestSupport

/// Every input a fuzzer ever crashed on stays a test: replayed through the same harness as the
/// fuzzers (`HostileInputHarness`), it must be consumed without a trap, a broken invariant or
/// a hang. A crash here takes the test process down, which fails the run.
@Suite(.timeLimit(.minutes(5)))
struct FuzzRegressionTests {
    @Test(arguments: FuzzCorpus.found)
    func foundInputIsConsumed(_ input: FuzzInput) async {
        await input.target.consume(input.bytes)
    }

    @Test(arguments: FuzzCorpus.seeds)
    func seedIsConsumed(_ input: FuzzInput) async {
        #expect(!input.bytes.isEmpty, "the seed \(input.path) is missing or empty")
        await input.target.consume(input.bytes)
    }

    /// Each target has seeds, so that `make fuzz` never starts from nothing and each harness
    /// function runs at least once in `make test`.
    @Test(arguments: HostileInput.allCases)
    func everyTargetHasSeeds(_ target: HostileInput) {
        #expect(FuzzCorpus.seeds.contains { $0.target == target }, "no seed for \(target.rawValue) under Fuzz/seeds/")
    }

    @Test func knownCrashesAreKept() {
        for crash in KnownCrash.all {
            #expect(FileManager.default.fileExists(atPath: Fixtures.repositoryRoot + "/" + crash.path),
                    "\(crash.path) is listed as a known crash but is not in the repository")
        }
    }
}

import Dispatch
@testable import ReaderUI
import Shared
import Synchronization
import Testing
import TestSupport

/// Highlight and note writes land in the order they were made, whatever each waits for, and
/// quitting can wait for them: the CI failure of `HighlightLibraryTests.fFindsANotesWords`
/// (a note saved, then not in the library) had both causes open — a highlight's write waiting
/// for the book's new library entry could land after the note's, and nothing waited at the end.
@Suite struct AnnotationWritesTests {
    /// A gate a write waits on until the test opens it.
    final class Gate: Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        func wait() async { await Blocking.run { self.semaphore.wait() } }
        func open() { semaphore.signal() }
    }

    @Test func aLaterWriteLandsAfterAnEarlierSlowOne() async throws {
        let writes = AnnotationWrites()
        let landed = Mutex<[String]>([])
        let gate = Gate()
        // The highlight's write waits (for the library entry); the note's is ready at once.
        writes.enqueue {
            await gate.wait()
            landed.withLock { $0.append("highlight") }
        }
        let note = writes.enqueue { landed.withLock { $0.append("note") } }
        #expect(writes.count == 2)
        gate.open()
        await note.value
        #expect(landed.withLock { $0 } == ["highlight", "note"])
        try await StateWait.until("no write pending") { writes.count == 0 }
    }

    @Test func quittingWaitsForTheWritesAndSaysWhenTheyDidNotFinish() async throws {
        let writes = AnnotationWrites()
        #expect(writes.waitUntilWritten(timeout: .milliseconds(1)), "nothing queued: nothing to wait for")
        let gate = Gate()
        let landed = Mutex(false)
        writes.enqueue {
            await gate.wait()
            landed.withLock { $0 = true }
        }
        // Still held at the gate: the wait gives up and says so.
        let waited = await Blocking.run { writes.waitUntilWritten(timeout: .milliseconds(50)) }
        #expect(!waited)
        gate.open()
        let finished = await Blocking.run { writes.waitUntilWritten(timeout: .seconds(120)) }
        #expect(finished)
        #expect(landed.withLock { $0 })
    }
}

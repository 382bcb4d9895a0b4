import Dispatch
import Foundation
@testable import ReaderUI
import Synchronization
import Terminal
import Testing
import TestSupport
import TextLayout

/// Paging past the first part of a one-chapter book while the rest is still converted (#28):
/// the end of the part is not the end of the book. The page stays, the status line says the
/// rest is being read, and once it arrives the page down lands on the page that follows.
@MainActor @Suite struct FirstPartPagingTests {
    /// Holds the whole chapter back from the reader: the loader's observer, told of the whole
    /// on the conversion's Dispatch thread before the whole is handed over, blocks that thread
    /// until the test releases it. Only the first whole is held.
    final class WholeHold: Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        private let state = Mutex((held: false, releases: 0))

        var observer: ConversionObserver {
            ConversionObserver { [self] event in
                guard case .whole = event else { return }
                let first = state.withLock { state in
                    defer { state.held = true }
                    return !state.held
                }
                if first { semaphore.wait() }
            }
        }

        /// Whether the conversion has ended and waits for the release.
        var isHolding: Bool { state.withLock { $0.held && $0.releases == 0 } }

        /// Lets the whole chapter go to the reader (once; later calls do nothing).
        func release() {
            let first = state.withLock { state in
                defer { state.releases += 1 }
                return state.releases == 0
            }
            if first { semaphore.signal() }
        }
    }

    @Test func aPageDownPastTheFirstPartWaitsForTheRestInsteadOfEndingTheBook() async throws {
        let path = try BookControllerTests.longChapterBook()
        let hold = WholeHold()
        defer { hold.release() }
        let ui = try InProcessApp("first-part-paging", withLibrary: false)
        ConversionObserver.$current.withValue(hold.observer) {
            ui.app.startReader(path: path, on: ui.canvas)
        }
        try await ui.waitFor("Paragraph 1 of")
        let book = try #require(ui.app.currentBook)
        try await StateWait.until("the conversion held after the first part") { hold.isHolding }
        // The first part is shown; the whole is held back.
        #expect(book.partialChapter == 0 && book.state.laidOutPart != .whole)
        let rows = book.state.rows, partLines = try #require(book.state.layout?.lineCount)
        let lastPartPage = ((partLines - 1) / rows) * rows
        for _ in 0..<(lastPartPage / rows) { ui.press(.character(" ")) }
        #expect(book.state.top == lastPartPage)

        // Past the first part's last page: not the book's end.
        ui.press(.character(" "))
        let waiting = ui.canvas.text
        #expect(!waiting.contains("End of the book."), "\(waiting)")
        #expect(waiting.contains(ReaderApp.restBeingRead), "\(waiting)")
        #expect(book.state.top == lastPartPage && book.state.laidOutPart != .whole)

        // The rest arrives: the page down is carried out, on the page after the part's last.
        hold.release()
        try await StateWait.until("the whole chapter shown") { book.state.laidOutPart == .whole }
        #expect(book.state.top == lastPartPage + rows)
        guard book.state.top == lastPartPage + rows, let layout = book.state.layout else { return }
        let next = layout.lines[book.state.top].text.trimmingCharacters(in: .whitespaces)
        #expect(!next.isEmpty)
        try await ui.waitFor(next, absent: ["End of the book.", ReaderApp.restBeingRead])
        // And paging goes on.
        ui.press(.character(" "))
        #expect(book.state.top == lastPartPage + 2 * rows)
    }
}

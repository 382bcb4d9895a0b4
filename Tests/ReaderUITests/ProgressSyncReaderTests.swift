import Bookshelf
import Foundation
@testable import ReaderUI
import Shared
import Synchronization
import Terminal
import Testing
import TestSupport

/// Progress sync in the reader (#32), in-process: another device's newer place offered when
/// the book opens ("kobo read to 43% … jump? y/n"), `y` going there and `n` staying, and the
/// place pushed when the book closes after it moved (and not when it did not).
@MainActor @Suite struct ProgressSyncReaderTests {
    static let book = Fixtures.sample("epub/idpf-wasteland.epub")

    /// What the fake sync was asked to push.
    final class Pushes: Sendable {
        let places = Mutex<[(path: String, locator: Locator, progress: Double?)]>([])
        var count: Int { places.withLock { $0.count } }
        var last: Locator? { places.withLock { $0.last?.locator } }
    }

    static func app(_ label: String, offer: ReaderProgressSync.Offer?, pushes: Pushes,
                    pushDelay: UInt64? = nil) throws -> InProcessApp {
        var sync = ReaderProgressSync(pull: { _, _ in offer }, push: { path, locator, progress in
            pushes.places.withLock { $0.append((path, locator, progress)) }
        })
        if let pushDelay { sync.pushDelay = pushDelay }
        return try InProcessApp(label, progressSync: sync)
    }

    static func offer() throws -> ReaderProgressSync.Offer {
        var locator = Locator(href: "EPUB/wasteland-content.xhtml", mediaType: nil)
        locator.locations.progression = 0.5
        return ReaderProgressSync.Offer(device: "kobo", percentage: 0.43, locator: locator)
    }

    @Test func yesJumpsToTheOtherDevicesPlaceAndClosingPushesIt() async throws {
        let pushes = Pushes()
        let ui = try Self.app("sync-yes", offer: try Self.offer(), pushes: pushes)
        ui.app.startReader(path: Self.book, on: ui.canvas)
        let asked = try await ui.waitFor("April is the cruellest month", "kobo read to 43%", "jump? y/n")
        #expect(asked.contains("in chapter 1") || asked.contains("in \""))
        ui.press(.character("y"))
        try await ui.waitUntil("the page moved") { screen in
            !screen.contains("April is the cruellest month") && !screen.contains("jump? y/n") && screen.contains("%")
        }
        ui.press(.character("q"))
        #expect(ui.app.isQuitting)
        // Quitting waits for the push of the place it moved to.
        #expect(pushes.count == 1)
        #expect(pushes.last?.href == "EPUB/wasteland-content.xhtml")
        #expect((pushes.last?.locations.progression ?? 0) > 0.3)
    }

    @Test func noKeepsThePageAndNothingIsPushedForAnUnmovedBook() async throws {
        let pushes = Pushes()
        let ui = try Self.app("sync-no", offer: try Self.offer(), pushes: pushes)
        ui.app.startReader(path: Self.book, on: ui.canvas)
        try await ui.waitFor("April is the cruellest month", "jump? y/n")
        ui.press(.character("n"))
        try await ui.waitFor("April is the cruellest month", absent: ["jump? y/n"])
        ui.press(.character("q"))
        #expect(ui.app.isQuitting)
        // The page never moved: the place offered is not overwritten with an older one.
        #expect(pushes.count == 0)
    }

    /// The device's name comes from the server: its escape sequences are shown, not run.
    @Test func theDevicesNameIsShownSafely() async throws {
        var offer = try Self.offer()
        offer.device = "\u{1B}]0;title\u{07}kobo\nnext"
        let ui = try Self.app("sync-safe", offer: offer, pushes: Pushes())
        ui.app.startReader(path: Self.book, on: ui.canvas)
        let screen = try await ui.waitFor("kobo", "jump? y/n")
        #expect(!screen.contains("\u{1B}") && !screen.contains("\u{07}"))
    }

    /// Pages turned, then a pause: one push of the page reached (the delay shortened from 25 s).
    @Test func turningPagesPushesOnceThePagesStop() async throws {
        let pushes = Pushes()
        let ui = try Self.app("sync-turns", offer: nil, pushes: pushes, pushDelay: 200_000_000)
        ui.app.startReader(path: Self.book, on: ui.canvas)
        try await ui.waitFor("April is the cruellest month", "p. 1/")
        ui.press(.character(" "), .character(" "), .character(" "))
        try await ui.waitFor("p. 4/")
        // What the input loop does after the keys it read (press() handles one key alone).
        ui.app.scheduleSavingPosition()
        try await StateWait.until("a push") { pushes.count > 0 }
        #expect(pushes.count == 1)
        #expect((pushes.last?.locations.progression ?? 0) > 0)
    }

    @Test func withoutAnOfferNothingIsAsked() async throws {
        let pushes = Pushes()
        let ui = try Self.app("sync-none", offer: nil, pushes: pushes)
        ui.app.startReader(path: Self.book, on: ui.canvas)
        let page = try await ui.waitFor("April is the cruellest month", "p. 1/")
        #expect(!page.contains("jump?"))
    }
}

extension InProcessApp {
    /// An interface with a library in a temporary folder and `progressSync`.
    init(_ label: String, progressSync: ReaderProgressSync) throws {
        let folder = Fixtures.temporaryDirectory(label)
        library = Library(store: try LibraryStore(path: folder + "/library.sqlite"))
        var dependencies = ReaderApp.Dependencies(library: library, open: Self.open, config: ReaderConfig())
        dependencies.cacheFolder = folder + "/cache"
        dependencies.progressSync = progressSync
        app = ReaderApp(dependencies: dependencies)
        canvas = MemoryCanvas(rows: 24, columns: 80)
    }
}

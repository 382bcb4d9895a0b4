import AudioPlayback
import AudioTestSupport
import Foundation
import ReadAloud
import Shared
import Streamer
import Testing
import TestSupport

/// The phrase as the place saved, and leaving a table (escapability).
@MainActor
@Suite struct MediaOverlayPlacesTests {
    @Test func thePlaceSavedIsThePhrase() async throws {
        let book = try MediaOverlayBook(publication: try await openNarratedBook())
        let first = MediaOverlayPlayer(book: book, engine: ScriptedEngine())
        first.go(toPhrase: 4)
        let locator = try #require(first.locator)
        #expect(locator.href == "OPS/chapter2.xhtml")
        #expect(locator.locations.fragments == ["c2p2"])
        // Reopened (through JSON, as stored), the same phrase, at its start.
        let restored = try #require(Locator(jsonString: locator.jsonString))
        let engine = ScriptedEngine()
        let second = MediaOverlayPlayer(book: book, engine: engine)
        #expect(second.go(to: restored))
        #expect(second.phraseIndex == 4)
        #expect(engine.moves == [.load(track: 1, at: 1.5, paused: true)])
        #expect(!second.go(to: Locator(href: "OPS/nowhere.xhtml", mediaType: .xhtml)))
        #expect(second.go(to: Locator(href: "OPS/chapter2.xhtml", mediaType: .xhtml)))
        #expect(second.phraseIndex == 3)
    }

    @Test func escapeLeavesTheTable() throws {
        func phrase(_ id: String, _ types: [String], at begin: Double) -> MediaOverlayPhrase {
            MediaOverlayPhrase(textHref: "c.xhtml", fragment: id, clip: MediaOverlayClip(href: "a.mp3", begin: begin, end: begin + 1),
                               types: types)
        }
        let cell = ["table", "table-row", "table-cell"]
        let overlay = MediaOverlay(href: "c.smil", phrases: [
            phrase("before", [], at: 0), phrase("cell1", cell, at: 1), phrase("cell2", cell, at: 2),
            phrase("after", [], at: 3), phrase("item", ["list", "list-item"], at: 4),
        ])
        let book = MediaOverlayBook(chapters: [.init(readingOrderIndex: 0, link: Link(href: "c.xhtml"), overlay: overlay)])
        let player = MediaOverlayPlayer(book: book, engine: ScriptedEngine())
        player.go(toPhrase: 0)
        #expect(!player.escape())
        player.go(toPhrase: 1)
        #expect(player.escape())
        #expect(player.currentEntry?.phrase.fragment == "after")
        player.go(toPhrase: 4)
        #expect(!player.escape(), "nothing follows the list")
    }
}

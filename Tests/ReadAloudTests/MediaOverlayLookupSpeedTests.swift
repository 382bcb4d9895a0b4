import Foundation
import ReadAloud
import Shared
import Streamer
import Testing
import TestSupport

/// The phrase at a random time in a 10-hour narrated book (36,000 one-second phrases in 50
/// chapters of 12 minutes, parsed from SMIL): found by binary search; the time each lookup
/// takes is printed, and measured by `make bench`.
@Suite struct MediaOverlayLookupSpeedTests {
    static let chapters = 50, phrasesPerChapter = 720

    static func tenHourBook() throws -> MediaOverlayBook {
        var chapters: [MediaOverlayBook.Chapter] = []
        for chapter in 0..<Self.chapters {
            var body = ""
            for phrase in 0..<Self.phrasesPerChapter {
                body += #"<par><text src="../c\#(chapter).xhtml#s\#(phrase)"/><audio src="../audio/c\#(chapter).mp3" "#
                    + #"clipBegin="\#(phrase)s" clipEnd="\#(phrase + 1)s"/></par>"# + "\n"
            }
            let href = "OPS/smil/c\(chapter).smil"
            let overlay = try MediaOverlayParser.parse(Data(MediaOverlayEPUB.smil(body).utf8), href: href)
            chapters.append(.init(readingOrderIndex: chapter, link: Link(href: "OPS/c\(chapter).xhtml"), overlay: overlay))
        }
        return MediaOverlayBook(chapters: chapters)
    }

    @Test func everyTimeOfATenHourBookFindsItsPhrase() throws {
        let book = try Self.tenHourBook()
        let timeline = MediaOverlayTimeline(book: book)
        #expect(timeline.entries.count == 36_000)
        #expect(timeline.duration == 36_000)
        var generator = SystemRandomNumberGenerator()
        let times = (0..<10_000).map { _ in Double.random(in: 0..<36_000, using: &generator) }
        let clock = ContinuousClock()
        var found = 0
        let elapsed = clock.measure {
            for time in times {
                if let index = timeline.index(at: time), timeline.entries[index].start <= time, time < timeline.entries[index].end {
                    found += 1
                }
            }
        }
        #expect(found == times.count)
        let perLookup = Double(elapsed.components.attoseconds) / 1e18 / Double(times.count) + Double(elapsed.components.seconds) / Double(times.count)
        print("media overlay lookup: \(String(format: "%.2f", perLookup * 1e6)) µs per lookup in a 10-hour book (36,000 phrases)")
        // No ceiling here: tests never assert a time (CI's machine is loaded); `make bench`
        // measures it (Benchmarks/media_overlays.py).
        // The same phrase back from its time, for a sample.
        for index in stride(from: 0, to: 36_000, by: 997) {
            #expect(timeline.index(at: try #require(timeline.time(ofPhrase: index))) == index)
        }
    }
}

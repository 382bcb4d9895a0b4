import Foundation
import ReadAloud
import Shared
import Streamer
import Testing
import TestSupport

/// The book's phrases on one clock: order, times, missing and excessive clip ends, the
/// skipping of page numbers, text-only phrases, lookups both ways.
@Suite struct MediaOverlayTimelineTests {
    static let fileDurations = ["OPS/audio/a.wav": 4.0, "OPS/audio/b.wav": 3.0]

    @Test func thePhrasesAreTimedAsTheSMILSays() async throws {
        let publication = try await openNarratedBook()
        let book = try MediaOverlayBook(publication: publication)
        let timeline = MediaOverlayTimeline(book: book, durations: Self.fileDurations)
        let expected = MediaOverlayEPUB.phrases
        #expect(timeline.entries.map(\.phrase.fragment) == expected.map(\.fragment))
        #expect(timeline.entries.map(\.phrase.textHref) == expected.map(\.href))
        for (entry, phrase) in zip(timeline.entries, expected) {
            #expect(abs(entry.start - phrase.start) < 1e-9 && abs(entry.end - phrase.end) < 1e-9, "\(phrase.fragment): \(entry)")
        }
        // Missing clipEnd: the end of the file, which ends it; clipEnd past the end: cut there.
        #expect(timeline.entries[2].fileEnd == 4 && timeline.entries[2].endsWithFile)
        #expect(timeline.entries[4].fileEnd == 3 && timeline.entries[4].endsWithFile)
        #expect(timeline.entries[3].fileBegin == 0)
        #expect(timeline.entries[5].phrase.isTextOnly)
        #expect(MediaOverlayTimeline.continues(timeline.entries[0], with: timeline.entries[1]))
        #expect(!MediaOverlayTimeline.continues(timeline.entries[1], with: timeline.entries[2]))
        #expect(book.audioHrefs == ["OPS/audio/a.wav", "OPS/audio/b.wav"])
    }

    @Test func timeToPhraseAndBack() async throws {
        let book = try MediaOverlayBook(publication: try await openNarratedBook())
        let timeline = MediaOverlayTimeline(book: book, durations: Self.fileDurations)
        let cases: [(Double, String)] = [(-1, "c1p1"), (0, "c1p1"), (0.999, "c1p1"), (1, "c1p2"), (2.6, "c1p3"), (3.7, "c2p1"),
                                         (6.69, "c2p2"), (100, "c2p2")]
        for (time, fragment) in cases {
            let index = try #require(timeline.index(at: time))
            #expect(timeline.entries[index].phrase.fragment == fragment, "at \(time)")
        }
        for index in timeline.entries.indices {
            let start = try #require(timeline.time(ofPhrase: index))
            if timeline.entries[index].duration > 0 { #expect(timeline.index(at: start) == index) }
        }
        #expect(timeline.index(ofText: "OPS/chapter2.xhtml#c2p2") == 4)
        #expect(timeline.index(ofText: "OPS/chapter2.xhtml") == 3)
    }

    /// Page numbers are skipped by default; asked for, they are read in their place.
    @Test func skippableStructuresAreASetting() async throws {
        let book = try MediaOverlayBook(publication: try await openNarratedBook())
        let reading = MediaOverlayTimeline(book: book, durations: Self.fileDurations, skipping: [])
        #expect(reading.entries.map(\.phrase.fragment) == ["c1p1", "c1p2", "pg7", "c1p3", "c2p1", "c2p2", "c2p3"])
        #expect(reading.entries[2].phrase.types == ["pagebreak"])
        #expect(abs(reading.duration - 7.0) < 1e-9)
        #expect(MediaOverlayTimeline.continues(reading.entries[1], with: reading.entries[2]))
    }

    /// Before a file's duration is known, a clip without clipEnd takes what the overlay's
    /// declared duration leaves it; without a declaration it is empty, and a clipEnd past the
    /// end keeps its written end; the lookup still lands on a phrase that plays.
    @Test func unknownDurationsKeepTheLookupUsable() async throws {
        let book = try MediaOverlayBook(publication: try await openNarratedBook())
        let declared = MediaOverlayTimeline(book: book)
        #expect(abs(declared.entries[2].duration - 1.2) < 1e-9)
        #expect(declared.entries[3].start == 3.7)
        #expect(declared.entries[4].fileEnd == 99)
        let undeclared = MediaOverlayTimeline(book: MediaOverlayBook(chapters: book.chapters.map {
            .init(readingOrderIndex: $0.readingOrderIndex, link: $0.link, overlay: $0.overlay)
        }))
        #expect(undeclared.entries[2].duration == 0)
        let index = try #require(undeclared.index(at: 2.5))
        #expect(undeclared.entries[index].phrase.fragment == "c2p1")
    }

    /// The package's overlay declarations reach the publication.
    @Test func thePackageDeclarationsAreRead() async throws {
        let publication = try await openNarratedBook()
        #expect(publication.readingOrder.map(\.mediaOverlayHref) == ["OPS/smil/chapter1.smil", "OPS/smil/chapter2.smil"])
        #expect(publication.metadata.mediaOverlayActiveClass == "-epub-media-overlay-active")
        #expect(publication.metadata.mediaOverlayPlaybackActiveClass == "-epub-media-overlay-playing")
        #expect(publication.metadata.duration == 7)
        #expect(publication.resources.first { $0.href == "OPS/smil/chapter1.smil" }?.duration == 4)
        #expect(publication.resources.first { $0.href == "OPS/smil/chapter2.smil" }?.duration == 3)
    }
}

/// An overlay naming a resource the publication does not have is refused when the book's
/// overlays are read, with the overlay and the resource named.
@Suite struct MediaOverlayBookTests {
    @Test func aClipOutsideThePublicationIsRefused() async throws {
        var entries = [ZipBuilder.Entry("mimetype", "application/epub+zip", compression: .stored),
                       ZipBuilder.Entry("META-INF/container.xml", TestEPUBs.containerXML)]
        for resource in MediaOverlayEPUB.resources() {
            var data = resource.data
            if resource.path == "OPS/smil/chapter1.smil" {
                data = Data(String(decoding: data, as: UTF8.self)
                    .replacingOccurrences(of: "../audio/a.wav\" clipBegin=\"2.8\"", with: "../../../etc/passwd\" clipBegin=\"2.8\"").utf8)
            }
            entries.append(ZipBuilder.Entry(resource.path, data))
        }
        let path = Fixtures.temporaryDirectory("narrated-outside") + "/outside.epub"
        try ZipBuilder.write(entries, to: path)
        let publication = try await openPublication(path)
        #expect(throws: MediaOverlayError.invalid(href: "OPS/smil/chapter1.smil", line: nil,
                                                  reason: "it refers to etc/passwd, which is not in the publication")) {
            try MediaOverlayBook(publication: publication)
        }
    }
}

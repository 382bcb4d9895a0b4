import Foundation
import Shared
import Testing
import TestSupport
@testable import TextLayout

/// A long chapter converted whole records checkpoints (#28), and a part converted from one is
/// that stretch of the whole chapter: the same blocks at the same offsets, the same link
/// indices, anchors and image blocks, from a bounded slice of the source.
@Suite struct ChapterCheckpointTests {
    /// Every block of `part` is the whole's block at the same index, and what points into the
    /// part (links from the checkpoint on, anchors, images) is the whole's.
    static func expectStretch(_ part: ChapterPart, of whole: TextDocument, _ message: Comment) {
        let indices = part.firstBlock..<(part.firstBlock + part.document.blocks.count)
        #expect(indices.upperBound <= whole.blocks.count, message)
        guard indices.upperBound <= whole.blocks.count else { return }
        let fingerprint = IncrementalParseTests().fingerprint
        #expect(fingerprint(TextDocument(href: "", blocks: part.document.blocks))
            == fingerprint(TextDocument(href: "", blocks: Array(whole.blocks[indices]))), message)
        let firstLink = part.document.links.prefix { $0.href.isEmpty }.count
        #expect(Array(part.document.links[firstLink...]) == Array(whole.links[firstLink..<part.document.links.count]), message)
        // An element that goes on past the part's end spans fewer blocks in it.
        for (id, anchor) in part.document.anchors where part.offsets.contains(anchor.offset) {
            let expected = whole.anchors[id]
            #expect(expected?.offset == anchor.offset && expected?.blocks.lowerBound == anchor.blocks.lowerBound
                && (expected?.blocks.upperBound ?? 0) >= anchor.blocks.upperBound, "\(message) anchor \(id)")
        }
        #expect(part.document.images == whole.images.filter { indices.contains($0.blockIndex) }, message)
    }

    /// Body-level blocks of every kind: paragraphs with links and anchors, headings, lists,
    /// tables, notes and images, about `minimumBytes` long; `wrapped` in a section and a div
    /// (the checkpoints then inside them).
    static func chapter(minimumBytes: Int, wrapped: Bool = false) -> String {
        var html = "<html lang=\"en\"><head><title>Long</title></head><body class=\"c\">\n"
        if wrapped { html += "<section epub:type=\"chapter\" id=\"ch1\"><h1>Title</h1><div class=\"text\" dir=\"ltr\">\n" }
        var index = 0
        while html.utf8.count < minimumBytes {
            index += 1
            switch index % 7 {
            case 0: html += "<table><tr><th>h\(index)</th><td><p>cell</p><p><b>\(index)</b></p></td></tr></table>\n"
            case 1: html += "<ol><li>one</li><li><p>para <img src=\"i\(index).png\" alt=\"pic\"/></p></li></ol>\n"
            case 2: html += "<p>Note<a epub:type=\"noteref\" href=\"#n\(index)\">*</a>.</p><aside epub:type=\"footnote\" id=\"n\(index)\"><p>N \(index).</p></aside>\n"
            case 3: html += "<h2 id=\"h\(index)\">Part \(index)</h2>"
            case 4: html += "<p>See <a href=\"other.xhtml#x\(index)\">there</a> and <a href=\"#p\(index - 1)\">here</a>.</p>"
            default: html += "<p id=\"p\(index)\">" + String(repeating: "Word\(index) café — ", count: 30) + "</p>\n"
            }
        }
        return html + (wrapped ? "</div></section>" : "") + "</body></html>"
    }

    @Test(arguments: [false, true])
    func aPartFromACheckpointIsThatStretchOfTheWholeChapter(wrapped: Bool) throws {
        let html = Array(Self.chapter(minimumBytes: 1_700_000, wrapped: wrapped).utf8)
        let (whole, checkpoints) = try ContentDocumentParser.parse(html: html, href: "OEBPS/long.xhtml", recordingCheckpointsEvery: 32 * 1024)
        // The checkpoints do not change the conversion.
        #expect(IncrementalParseTests().fingerprint(whole)
            == IncrementalParseTests().fingerprint(try ContentDocumentParser.parse(html: html, href: "OEBPS/long.xhtml")))
        #expect(checkpoints.count >= 40 && checkpoints.count <= 60, "\(checkpoints.count)")
        #expect(checkpoints.allSatisfy { $0.wrappers.count == (wrapped ? 2 : 0) })
        #expect(zip(checkpoints, checkpoints.dropFirst()).allSatisfy { $0.byte < $1.byte && $0.offset < $1.offset })
        for checkpoint in checkpoints {
            #expect(whole.blocks[checkpoint.blocks].offset == checkpoint.offset)
        }
        // In the middle: three checkpoints' worth of source, not the text before.
        let middle = checkpoints.count / 2
        let part = try #require(try ContentDocumentParser.parsePart(html: html, href: "OEBPS/long.xhtml",
                                                                   from: checkpoints[middle], to: checkpoints[middle + 3]))
        #expect(part.bytes <= 4 * 32 * 1024 + 300, "\(part.bytes)")
        #expect(part.offsets == checkpoints[middle].offset..<checkpoints[middle + 3].offset)
        Self.expectStretch(part, of: whole, "middle")
        // Stopped at a text offset (three screens past a place): the whole's blocks up to the
        // first that reaches it, none after.
        let stop = checkpoints[middle].offset + 12_000
        let stopped = try #require(try ContentDocumentParser.parsePart(html: html, href: "OEBPS/long.xhtml", from: checkpoints[middle],
                                                                      to: checkpoints[middle + 3], stoppingAt: stop))
        #expect(stopped.offsets.upperBound >= stop && stopped.offsets.upperBound < part.offsets.upperBound, "\(stopped.offsets)")
        #expect(stopped.document.blocks.count < part.document.blocks.count)
        #expect(whole.blocks.contains { $0.offset == stopped.offsets.upperBound }, "it ends where a block of the whole begins")
        Self.expectStretch(stopped, of: whole, "stopped")
        // At the end: to the end of the chapter.
        let last = try #require(try ContentDocumentParser.parsePart(html: html, href: "OEBPS/long.xhtml",
                                                                   from: checkpoints[checkpoints.count - 1], to: nil))
        #expect(last.offsets.upperBound == whole.length)
        #expect(last.firstBlock + last.document.blocks.count == whole.blocks.count)
        Self.expectStretch(last, of: whole, "end")
    }

    /// Kept as integers (the library's form) they come back the same; a place finds the stretch
    /// from the last checkpoint before its margin to the first past its screens.
    @Test func checkpointsKeptAsIntegersComeBackAndFindTheirStretch() throws {
        let html = Array(Self.chapter(minimumBytes: 400_000, wrapped: true).utf8)
        let (_, checkpoints) = try ContentDocumentParser.parse(html: html, href: "c.xhtml", recordingCheckpointsEvery: 32 * 1024)
        #expect(checkpoints.count >= 8)
        #expect(ChapterCheckpoint.checkpoints(fromFields: ChapterCheckpoint.fields(of: checkpoints)) == checkpoints)
        #expect(ChapterCheckpoint.checkpoints(fromFields: [1, 2, 3]).isEmpty)
        #expect(ChapterCheckpoint.checkpoints(fromFields: ChapterCheckpoint.fields(of: checkpoints.reversed())).isEmpty)
        let place = checkpoints[5].offset + 100
        let stretch = try #require(ChapterCheckpoint.stretch(of: checkpoints, showing: place, before: 50, after: 9_000))
        #expect(stretch.from == checkpoints[5])
        #expect(stretch.to == checkpoints.first { $0.offset >= place + 9_000 })
        #expect(ChapterCheckpoint.stretch(of: checkpoints, showing: 100, before: 50, after: 10) == nil)
    }

    /// The bench's long chapter (make_big_epub: an XML declaration, a meta charset, the text in
    /// a <section>) records checkpoints.
    @Test func theBenchChapterRecordsCheckpoints() throws {
        let path = Fixtures.temporaryDirectory("checkpoint-bench") + "/book.epub"
        try Command.run(["python3", Fixtures.repositoryRoot + "/Benchmarks/make_big_epub.py", "--chapters", "1",
                         "--words", "100000", "--out", path])
        let html = try Command.run(["unzip", "-p", path, "OEBPS/ch0001.xhtml"])
        let (whole, checkpoints) = try ContentDocumentParser.parse(html: html, href: "OEBPS/ch0001.xhtml", recordingCheckpointsEvery: 32 * 1024)
        #expect(checkpoints.count >= 10, "\(checkpoints.count) for \(html.count) bytes")
        if checkpoints.count > 3 {
            let part = try #require(try ContentDocumentParser.parsePart(html: html, href: "OEBPS/ch0001.xhtml",
                                                                       from: checkpoints[2], to: checkpoints[3]))
            Self.expectStretch(part, of: whole, "bench")
        }
    }

    /// Another edition of the chapter (shorter, or changed before the place): no part.
    @Test func aSourceThatDoesNotMatchTheCheckpointGivesNoPart() throws {
        let html = Array(Self.chapter(minimumBytes: 400_000).utf8)
        let (_, checkpoints) = try ContentDocumentParser.parse(html: html, href: "c.xhtml", recordingCheckpointsEvery: 32 * 1024)
        let checkpoint = try #require(checkpoints.last)
        #expect(try ContentDocumentParser.parsePart(html: Array(html.prefix(checkpoint.byte)), href: "c.xhtml", from: checkpoint, to: nil) == nil)
        var shifted = html
        shifted.insert(contentsOf: Array("<p>New</p>".utf8), at: checkpoint.bodyStart)
        #expect(try ContentDocumentParser.parsePart(html: shifted, href: "c.xhtml", from: checkpoint, to: nil) == nil)
    }

    /// Real chapters, a checkpoint about every 4 KiB (before an element of the body or of its
    /// wrappers that starts between blocks):
    /// each stretch from one to the next converts as in the whole chapter. (Chapters whose
    /// blocks are all inside a wrapper, a `<section>` or a `<div>`, record none yet.)
    @Test func everyStretchOfASampleConvertsAsInTheWhole() async throws {
        var compared = 0
        for sample in ["epub/idpf-wasteland.epub", "epub/epubjs-alice.epub", "epub/idpf-childrens-literature.epub",
                       "epub/debian-live-manual.en.epub", "webpub/readium-mobydick.webpub"] {
            let publication = try await openSample(sample)
            defer { publication.close() }
            for link in publication.readingOrder where link.mediaType?.isHTML == true {
                let resource = publication.get(link)
                defer { resource.close() }
                let html = try resource.read().get()
                let (whole, checkpoints) = try ContentDocumentParser.parse(html: html, href: link.href, recordingCheckpointsEvery: 4096)
                let ends = checkpoints.dropFirst().map(Optional.some) + [nil]
                for (checkpoint, end) in zip(checkpoints, ends) {
                    let part = try #require(try ContentDocumentParser.parsePart(html: html, href: link.href, from: checkpoint, to: end),
                                            "\(link.href) at \(checkpoint.byte)")
                    Self.expectStretch(part, of: whole, "\(sample) \(link.href) at \(checkpoint.byte)")
                    compared += 1
                }
            }
        }
        #expect(compared > 0, "\(compared)")
    }
}

import Foundation
@testable import ReaderUI
import Terminal
import Testing
import TestSupport
import TextLayout

/// Memory after a search stays bounded (#28): the book pass writes each chapter's text to the
/// book's text file as it goes and the search index keeps offsets in it, so a search over a
/// book of many chapters holds one chapter at a time, not the book's text.
@MainActor @Suite struct SearchMemoryBoundTests {
    static let chapterCount = 60

    /// A book of `chapterCount` chapters of a few paragraphs; chapter 47 alone has the word
    /// "quillwort".
    static func manyChapterBook() throws -> String {
        let path = Fixtures.temporaryDirectory("search-memory-book") + "/many.epub"
        let items = (1...chapterCount).map { #"<item id="c\#($0)" href="c\#($0).xhtml" media-type="application/xhtml+xml"/>"# }.joined()
        let refs = (1...chapterCount).map { #"<itemref idref="c\#($0)"/>"# }.joined()
        let opf = """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
              <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
                <dc:identifier id="id">urn:test:search-memory-\(UUID().uuidString)</dc:identifier>
                <dc:title>Many chapters</dc:title><dc:language>en</dc:language>
                <meta property="dcterms:modified">2026-01-01T00:00:00Z</meta>
              </metadata>
              <manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>\(items)</manifest>
              <spine>\(refs)</spine>
            </package>
            """
        let nav = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Many</title></head>
            <body><nav epub:type="toc"><ol><li><a href="c1.xhtml">Chapter 1</a></li></ol></nav></body></html>
            """
        var entries = [ZipBuilder.Entry("mimetype", "application/epub+zip", compression: .stored),
                       ZipBuilder.Entry("META-INF/container.xml", TestEPUBs.containerXML),
                       ZipBuilder.Entry("OPS/package.opf", opf), ZipBuilder.Entry("OPS/nav.xhtml", nav)]
        for number in 1...chapterCount {
            let word = number == 47 ? " quillwort" : ""
            let paragraphs = (1...40).map { "<p>Chapter \(number), paragraph \($0): the barges drift with the turning tide\(word).</p>" }
            entries.append(ZipBuilder.Entry("OPS/c\(number).xhtml", """
                <?xml version="1.0" encoding="UTF-8"?>
                <html xmlns="http://www.w3.org/1999/xhtml"><head><title>Chapter \(number)</title></head>
                <body>\(paragraphs.joined())</body></html>
                """))
        }
        try ZipBuilder.write(entries, to: path)
        return path
    }

    @Test func aSearchOverManyChaptersKeepsNoChapterTextInMemory() async throws {
        let path = try Self.manyChapterBook()
        let ui = try InProcessApp("search-memory", rows: 24, columns: 80)
        ui.app.startReader(path: path, on: ui.canvas)
        try await ui.waitFor("Chapter 1, paragraph 1:")
        let book = try #require(ui.app.currentBook)
        try await StateWait.until("the book pass done", detail: { ui.canvas.text }) {
            book.textIndex.isComplete && !book.tasks.isRunning(.textIndex)
        }
        // A search for a word the book lacks goes through every chapter.
        ui.press(.character("/"))
        ui.type("zqxjabsent")
        ui.press(.enter)
        try await ui.waitFor("No match for")
        #expect(book.textIndex.chaptersInMemory <= 1, "\(book.textIndex.chaptersInMemory) of \(Self.chapterCount) chapters' text held")

        // The index read from the file still finds a word, in its chapter.
        ui.press(.character("/"))
        ui.type("quillwort")
        ui.press(.enter)
        try await ui.waitFor("Chapter 47, paragraph", "quillwort", "1/40")
        ui.press(.character("n"))
        try await ui.waitFor("2/40")
        #expect(book.textIndex.chaptersInMemory <= 1)
        let hits = try await Task.detached { [index = book.textIndex] in try index.search("quillwort") }.value
        #expect(hits.count == 40 && Set(hits.map(\.chapter)) == [46], "\(hits.map(\.chapter))")
        #expect(hits.first?.snippet.contains("turning tide quillwort") == true)
    }

    /// A search of the chapters read from the book's text file finds what a search of the same
    /// texts in memory finds (case, accents, whole words, regular expressions), snippets alike.
    @Test func theIndexInTheTextFileSearchesAsTheOneInMemory() throws {
        let folder = Fixtures.temporaryDirectory("search-memory-file")
        let texts = ["L'École est là.\nUne e\u{301}cole.\n", "", "Nothing here.\n", "ÉCOLE, ecole; concatenate cat.\n"]
        BookTextCache.write(texts, identity: "id:parity", in: folder)
        let stored = try #require(BookTextCache.open(identity: "id:parity", count: texts.count, in: folder))
        var onDisk = BookTextIndex(chapterCount: texts.count), inMemory = BookTextIndex(chapterCount: texts.count)
        for (chapter, text) in texts.enumerated() {
            onDisk.set(stored[chapter], chapter: chapter)
            inMemory.set(SearchableText(text), chapter: chapter)
        }
        #expect(onDisk.chaptersInMemory == 0 && onDisk.isComplete)
        // The folded form written a piece at a time is the one a search in memory scans.
        let long = String(repeating: "Ça, l'Œuvre e\u{301}crite — 東京. ", count: 4_000)
        BookTextCache.write([long], identity: "id:long", in: folder)
        let longStored = try #require(BookTextCache.open(identity: "id:long", count: 1, in: folder)?.first)
        #expect(longStored.store.bytes(at: longStored.offset + longStored.textBytes, count: longStored.foldedBytes) == SearchableText(long).foldedBytes)
        #expect(longStored.length == long.count && longStored.text() == long)
        // A word across two of the windows in which a long chapter's folded bytes are read.
        let window = StoredChapterText.window
        let across = (1...8).map { String(repeating: "a", count: window - $0) + "quillwort" + String(repeating: "b", count: 100) }
        BookTextCache.write(across, identity: "id:across", in: folder)
        let acrossStored = try #require(BookTextCache.open(identity: "id:across", count: across.count, in: folder))
        var acrossIndex = BookTextIndex(chapterCount: across.count)
        for (chapter, stored) in acrossStored.enumerated() { acrossIndex.set(stored, chapter: chapter) }
        #expect(try acrossIndex.matches("quillwort").map { $0.chapter } == Array(0..<8))
        let queries: [(String, TextSearchOptions)] = [
            ("ecole", TextSearchOptions()), ("École", TextSearchOptions(caseSensitive: true)),
            ("cat", TextSearchOptions(wholeWord: true)), ("c[a-z]+e", TextSearchOptions(regularExpression: true)), ("absent", TextSearchOptions()),
        ]
        for (query, options) in queries {
            let expected = try inMemory.search(query, options: options)
            #expect(try onDisk.search(query, options: options) == expected, "\(query)")
            for chapter in texts.indices {
                #expect(try onDisk.ranges(inChapter: chapter, of: query, options: options) == expected.filter { $0.chapter == chapter }.map(\.range))
            }
        }
        #expect(try onDisk.search("ecole").count == 4)
    }
}

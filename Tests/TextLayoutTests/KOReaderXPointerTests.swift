import Foundation
import Shared
import Testing
import TestSupport
@testable import TextLayout

/// KOReader's XPointers: those written by hand following crengine's conventions land on the
/// text expected, and malformed ones are refused without harm.
@Suite struct KOReaderXPointerTests {
    /// A fixture list: (XPointer, the text expected there).
    static func fixtures(_ name: String) throws -> [(pointer: String, text: String)] {
        let text = try String(contentsOfFile: Fixtures.path("koreader-xpointers/\(name)"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), let tab = line.firstIndex(of: "\t") else { return nil }
            return (String(line[..<tab]), String(line[line.index(after: tab)...]))
        }
    }

    /// The text of `document` from `offset` on, `count` characters, as the reader would see it.
    static func text(_ document: TextDocument, at offset: Int, count: Int) -> String {
        document.text(in: offset..<min(document.length, offset + count * 2))
            .replacingOccurrences(of: "\n", with: " ").prefix(count).description
    }

    /// Checks every fixture of `list` against `map`/`document` (the chapter `fragment`).
    static func check(_ list: [(pointer: String, text: String)], fragment: Int,
                      map: KOReaderXPointerMap, document: TextDocument) {
        for (written, expected) in list {
            guard let pointer = KOReaderXPointer(parsing: written) else {
                Issue.record("\(written) does not parse")
                continue
            }
            guard pointer.fragment == fragment else { continue }
            guard let offset = map.offset(of: pointer) else {
                Issue.record("\(written) does not resolve")
                continue
            }
            #expect(text(document, at: offset, count: expected.count) == expected, "\(written)")
        }
    }

    @Test func handWrittenPointersOfAChapterWrittenForTheConventions() throws {
        let bytes = Fixtures.bytes(Fixtures.path("koreader-xpointers/conventions.xhtml"))
        let document = try ContentDocumentParser.parse(html: bytes, href: "conventions.xhtml")
        let map = KOReaderXPointerMap(html: bytes, document: document)
        let list = try Self.fixtures("conventions.tsv")
        #expect(list.count >= 20)
        Self.check(list, fragment: 2, map: map, document: document)
    }

    @Test(arguments: [("alice.tsv", "epub/epubjs-alice.epub"), ("wasteland.tsv", "epub/idpf-wasteland.epub")])
    func handWrittenPointersOfASampleBook(_ list: String, _ book: String) async throws {
        let publication = try await openSample(book)
        defer { publication.close() }
        let loader = ContentDocumentLoader(publication: publication)
        let fixtures = try Self.fixtures(list)
        let fragments = Set(fixtures.compactMap { KOReaderXPointer(parsing: $0.pointer)?.fragment })
        #expect(!fragments.isEmpty)
        // DocFragment[N] is the N-th item of the spine, linear or not.
        let spine = KOReaderSpine(publication: publication)
        for fragment in fragments.sorted() {
            let link = try #require(spine.link(ofFragment: fragment, in: publication))
            let (document, map) = try loader.koreaderXPointerMap(for: link)
            Self.check(fixtures, fragment: fragment, map: map, document: document)
        }
    }

    /// DocFragment[N] counts the non-linear spine items (alice's cover and contents) that the
    /// reading order leaves out.
    @Test func fragmentsCountEverySpineItem() async throws {
        let publication = try await openSample("epub/epubjs-alice.epub")
        defer { publication.close() }
        let spine = KOReaderSpine(publication: publication)
        #expect(spine.paths.count == 13)
        #expect(publication.readingOrder.count == 11)
        #expect(spine.fragment(of: publication.readingOrder[0]) == 3)
        #expect(spine.fragment(of: publication.readingOrder[1]) == 4)
        #expect(spine.link(ofFragment: 4, in: publication)?.href == publication.readingOrder[1].href)
        #expect(spine.link(ofFragment: 1, in: publication).map { Href.path(of: $0.href) } == "OPS/cover.xhtml")
        #expect(spine.link(ofFragment: 0, in: publication) == nil)
        #expect(spine.link(ofFragment: 14, in: publication) == nil)
    }

    @Test func pointersArePrintedAsTheyWereRead() {
        for text in ["/body/DocFragment[3]/body/div/p[4]/text().17", "/body/DocFragment[12]/body/section/p[2]",
                     "/body/DocFragment[1]/body/div[2]/p.0", "/body/DocFragment/body/p/text()[2].0",
                     "/body/DocFragment[7]/body/p[1]/text()[1].0"] {
            #expect(KOReaderXPointer(parsing: text)?.description == text)
        }
        let pointer = KOReaderXPointer(parsing: "/body/DocFragment[3]/body/div/p[4]/text().17")
        #expect(pointer?.fragment == 3)
        #expect(pointer?.steps == [.init(name: "div"), .init(name: "p", index: 4)])
        #expect(pointer?.target == .text(index: nil, offset: 17))
        #expect(KOReaderXPointer(parsing: "/body[1]/DocFragment[3]/body[1]/p[1]/text()[1].0")?.fragment == 3)
    }

    @Test func malformedPointersAreRefused() {
        let deep = "/body/DocFragment[2]/body" + String(repeating: "/div", count: 2_000) + "/text().0"
        let huge = "/body/DocFragment[2]/body" + String(repeating: "/div[1]", count: 20_000)
        for text in ["", "/", "body", "/body", "/html/body/p", "/body/DocFragment[0]/body/p", "/body/DocFragment[x]/body",
                     "/body/DocFragment[2]/html", "/body/DocFragment[2]/body/p[", "/body/DocFragment[2]/body/p[]/text().1",
                     "/body/DocFragment[2]/body/p[1]x/text().1", "/body/DocFragment[2]/body/p/text().",
                     "/body/DocFragment[2]/body/p/text().-1", "/body/DocFragment[2]/body/p/text().1x",
                     "/body/DocFragment[2]/body/p/text().99999999999999999999999", "/body/DocFragment[2]/body/p[-1]",
                     "/body/DocFragment[2]/body/p[99999999999999999999]", "/body/DocFragment[2]/body/p/text().1/b",
                     "/body/DocFragment[2]/body/p.1.2", "/body/DocFragment[2]/body/p[0]", "/body/DocFragment[2]/body/ p",
                     "/body/DocFragment[2]/body//p", "/body/DocFragment[2]/body/p/text()[0].1", "#id",
                     "/body/DocFragment[2]/body/p\u{0}/text().1", "/body/DocFragment[2]/body/p/text()x.1", deep, huge] {
            #expect(KOReaderXPointer(parsing: text) == nil, "\(text.prefix(80))")
        }
    }

    @Test func pointersThatNameNothingDoNotResolve() throws {
        let bytes = Fixtures.bytes(Fixtures.path("koreader-xpointers/conventions.xhtml"))
        let document = try ContentDocumentParser.parse(html: bytes, href: "conventions.xhtml")
        let map = KOReaderXPointerMap(html: bytes, document: document)
        let deep = "/body/DocFragment[2]/body" + String(repeating: "/div", count: 900) + "/text().0"
        for text in ["/body/DocFragment[2]/body/p[99]/text().0", "/body/DocFragment[2]/body/p[1]/text()[2].0",
                     "/body/DocFragment[2]/body/p[1]/text().9999", "/body/DocFragment[2]/body/p[4].99",
                     "/body/DocFragment[2]/body/nav/text().0", "/body/DocFragment[2]/body/p[100000000]/text().100000000",
                     "/body/DocFragment[2]/body/p[1]/text().100000000", "/body/DocFragment[2]/body/p[1]/b/text().0", deep] {
            let pointer = try #require(KOReaderXPointer(parsing: text), "\(text.prefix(80))")
            #expect(map.offset(of: pointer) == nil, "\(text.prefix(80))")
        }
        #expect(map.xpointer(at: -1, fragment: 2) == nil)
        #expect(map.xpointer(at: document.length + 1, fragment: 2) == nil)
        #expect(map.xpointer(at: 0, fragment: 0) == nil)
    }

    @Test func chaptersWithoutTextOrNotHTMLGiveNoPointer() throws {
        for html in ["", "   ", "<html><body></body></html>", "\u{0}\u{1}garbage<<<>>>"] {
            let bytes = Array(html.utf8)
            let document = try ContentDocumentParser.parse(html: bytes, href: "empty.xhtml")
            let map = KOReaderXPointerMap(html: bytes, document: document)
            #expect(document.length > 0 || map.xpointer(at: 0, fragment: 1) == nil)
            let pointer = try #require(KOReaderXPointer(parsing: "/body/DocFragment[1]/body/p/text().0"))
            #expect(map.offset(of: pointer) == nil)
        }
    }
}

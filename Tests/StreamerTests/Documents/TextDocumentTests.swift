import Foundation
import Shared
import Streamer
import Testing
import TestSupport

/// Plain text opens as a book: encoding detected, chapters from heading lines, a Project
/// Gutenberg frame read for the title and left out of the text (#34).
@Suite struct TextDocumentTests {
    static let gutenberg = """
        The Project Gutenberg eBook of Tiny Tale, by Ann Author

        Title: Tiny Tale

        Author: Ann Author

        Language: French

        *** START OF THE PROJECT GUTENBERG EBOOK TINY TALE ***

        TINY TALE

        CHAPTER I.

        It was a dark and stormy night; the rain fell in torrents, except at
        occasional intervals, when it was checked by a violent gust of wind.

        “Hello,” said the café owner.

        Chapter 2: The Zebra

        The zebra quietly left the building before dawn.

        *** END OF THE PROJECT GUTENBERG EBOOK TINY TALE ***

        Licence text that is no part of the book.
        """

    @Test func gutenbergFrameGivesMetadataAndChapters() async throws {
        let path = try DocumentOpening.write(Data(Self.gutenberg.utf8), named: "tale.txt")
        let publication = try await DocumentOpening.open(path)
        defer { publication.close() }
        #expect(publication.metadata.title == "Tiny Tale")
        #expect(publication.metadata.authors.map(\.name) == ["Ann Author"])
        #expect(publication.metadata.languages == ["fr"])
        #expect(DocumentOpening.outline(publication.tableOfContents) == ["CHAPTER I.", "Chapter 2: The Zebra"])
        #expect(publication.readingOrder.count == 3)
        let first = try DocumentOpening.text(publication, publication.readingOrder[1].href)
        // Hard-wrapped lines make one paragraph.
        #expect(first.contains("<p>It was a dark and stormy night; the rain fell in torrents, except at occasional intervals,"))
        let all = try publication.readingOrder.map { try DocumentOpening.text(publication, $0.href) }.joined()
        #expect(!all.contains("Licence text"))
        #expect(!all.contains("PROJECT GUTENBERG"))
    }

    @Test(arguments: [
        ("utf-8 with mark", Data([0xEF, 0xBB, 0xBF]) + Data("Caf\u{E9} \u{201C}ok\u{201D}".utf8)),
        ("utf-16le with mark", Data([0xFF, 0xFE]) + Self.utf16("Caf\u{E9} \u{201C}ok\u{201D}", bigEndian: false)),
        ("utf-16be without mark", Self.utf16("Caf\u{E9} \u{201C}ok\u{201D}", bigEndian: true)),
        ("windows-1252", Data([0x43, 0x61, 0x66, 0xE9, 0x20, 0x93, 0x6F, 0x6B, 0x94])),
    ])
    func encodingsAreDetected(_ name: String, _ bytes: Data) async throws {
        let path = try DocumentOpening.write(bytes, named: "cafe.txt")
        let publication = try await DocumentOpening.open(path)
        defer { publication.close() }
        let text = try DocumentOpening.text(publication, publication.readingOrder[0].href)
        #expect(text.contains("<p>Caf\u{E9} \u{201C}ok\u{201D}</p>"), "\(name): \(text)")
    }

    @Test(arguments: [
        ("binary", Data([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x00, 0x00, 0x00, 0x13]), "not text"),
        ("broken utf-8 after its mark", Data([0xEF, 0xBB, 0xBF, 0x41, 0xC3, 0x28]), "not valid UTF-8 at byte 4"),
        ("odd utf-16", Data([0xFF, 0xFE, 0x41, 0x00, 0x42]), "not valid UTF-16LE"),
        ("lone surrogate", Data([0xFF, 0xFE, 0x41, 0x00, 0x00, 0xD8, 0x41, 0x00]), "not valid UTF-16LE"),
    ])
    func hostileTextIsRefusedClearly(_ name: String, _ bytes: Data, _ message: String) async throws {
        let path = try DocumentOpening.write(bytes, named: "bad.txt")
        let failure = await DocumentOpening.failure(path)
        #expect(failure?.contains(message) == true, "\(name): \(failure ?? "opened")")
    }

    @Test func headingsAreRecognisedNotSentences() async throws {
        #expect(try await isHeading("CHAPTER XIV"))
        #expect(try await isHeading("Chapter 12. The Storm"))
        #expect(try await isHeading("BOOK TWO"))
        #expect(try await isHeading("IV."))
        #expect(try await isHeading("Epilogue"))
        #expect(try await !isHeading("Chapter 3 was the one she liked best."))
        #expect(try await !isHeading("I went home."))
        #expect(try await !isHeading("IIII"))
    }

    /// Whether `line`, alone between two paragraphs, is taken as a chapter heading.
    func isHeading(_ line: String) async throws -> Bool {
        let text = "Some opening words.\n\n\(line)\n\nThe chapter's text."
        let publication = try await DocumentOpening.open(try DocumentOpening.write(Data(text.utf8), named: "probe.txt"))
        defer { publication.close() }
        return DocumentOpening.outline(publication.tableOfContents) == [line]
    }

    static func utf16(_ text: String, bigEndian: Bool) -> Data {
        Data(text.utf16.flatMap { unit in
            bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        })
    }
}

import Foundation
import Shared
import Streamer
import Testing
import TestSupport

/// FictionBook 2, alone and zipped: metadata and cover from the description, sections as
/// chapters with nested contents, pictures decoded, notes as popups; hostile files refused
/// with a clear message (#34).
@Suite struct FB2DocumentTests {
    static let pixel = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="

    static func book(prolog: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>\(prolog)
        <FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0" xmlns:l="http://www.w3.org/1999/xlink">
        <description><title-info><genre>sf_fantasy</genre>
        <author><first-name>Ivan</first-name><middle-name>I.</middle-name><last-name>Petrov</last-name></author>
        <book-title>The Test Book</book-title><annotation><p>A short book.</p><p>About tests.</p></annotation>
        <coverpage><image l:href="#cover.png"/></coverpage><lang>ru</lang><sequence name="Tests" number="2"/></title-info>
        <publish-info><publisher>Acme</publisher><year>2020</year><isbn>978-3-16-148410-0</isbn></publish-info></description>
        <body><title><p>The Test Book</p></title>
        <section id="ch1"><title><p>Chapter One</p></title>
        <p>The quick brown fox<a l:href="#n1" type="note">[1]</a> jumps.</p>
        <section><title><p>A Part</p></title><p>Nested <emphasis>text</emphasis> &amp; more.</p></section></section>
        <section><title><p>Chapter Two</p></title><poem><stanza><v>Line one</v><v>Line two</v></stanza></poem>
        <image l:href="#cover.png"/><p>Back to <a l:href="#ch1">chapter one</a>.</p></section></body>
        <body name="notes"><title><p>Notes</p></title><section id="n1"><title><p>1</p></title><p>About foxes.</p></section></body>
        <binary id="cover.png" content-type="image/png">\(pixel)</binary>
        </FictionBook>
        """
    }

    @Test func descriptionSectionsPicturesAndNotes() async throws {
        let path = try DocumentOpening.write(Data(Self.book().utf8), named: "book.fb2")
        let publication = try await DocumentOpening.open(path)
        defer { publication.close() }
        let metadata = publication.metadata
        #expect(metadata.title == "The Test Book")
        #expect(metadata.authors.map(\.name) == ["Ivan I. Petrov"])
        #expect(metadata.languages == ["ru"])
        #expect(metadata.description == "A short book.\nAbout tests.")
        #expect(metadata.publishers.map(\.name) == ["Acme"])
        #expect(metadata.identifier == "urn:isbn:978-3-16-148410-0")
        #expect(metadata.belongsTo["series"]?.first?.name == "Tests")
        #expect(metadata.belongsTo["series"]?.first?.position == 2)
        #expect(DocumentOpening.outline(publication.tableOfContents) == ["Chapter One", "  A Part", "Chapter Two", "Notes"])

        let cover = try #require(publication.resources.first { $0.rels.contains("cover") })
        #expect(cover.mediaType?.matches(.png) == true)
        #expect(try publication.get(cover.href).read(range: nil).get().starts(with: [0x89, 0x50, 0x4E, 0x47]))

        let chapterOne = try DocumentOpening.text(publication, publication.readingOrder[1].href)
        let notesHref = try #require(publication.readingOrder.last?.href)
        let notesName = String(notesHref.split(separator: "/").last ?? "")
        #expect(chapterOne.contains("<a href=\"\(notesName)#n1\" epub:type=\"noteref\" role=\"doc-noteref\">[1]</a>"))
        #expect(chapterOne.contains("Nested <em>text</em> &amp; more."))
        let chapterTwo = try DocumentOpening.text(publication, publication.readingOrder[2].href)
        #expect(chapterTwo.contains("<img src=\"images/image-1.png\""))
        #expect(chapterTwo.contains("href=\"\(publication.readingOrder[1].href.split(separator: "/").last ?? "")#ch1\""))
        #expect(try DocumentOpening.text(publication, notesHref).contains("<section id=\"n1\">"))
    }

    @Test func zippedFB2OpensTheSame() async throws {
        let path = Fixtures.temporaryDirectory("fb2zip") + "/book.fb2.zip"
        try ZipBuilder.write([.init("book.fb2", Self.book())], to: path)
        let publication = try await DocumentOpening.open(path)
        defer { publication.close() }
        #expect(publication.metadata.title == "The Test Book")
        #expect(publication.readingOrder.count == 4)
    }

    @Test func billionLaughsAndExternalEntitiesAreRefused() async throws {
        let laughs = """

            <!DOCTYPE FictionBook [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
            <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY x SYSTEM "file:///etc/passwd">]>
            """
        let book = Self.book(prolog: laughs).replacing("About foxes.", with: "&c; &x;")
        let path = try DocumentOpening.write(Data(book.utf8), named: "laughs.fb2")
        let failure = await DocumentOpening.failure(path)
        #expect(failure?.contains("declares a document type") == true, "\(failure ?? "opened")")
    }

    @Test func truncatedWrongRootAndHugeClaimsEndInClearErrors() async throws {
        let whole = Data(Self.book().utf8)
        let cut = whole.prefix(whole.count / 4)
        let truncated = try DocumentOpening.write(cut, named: "cut.fb2")
        #expect(await DocumentOpening.failure(truncated)?.contains("no <body>") == true)

        let wrongRoot = try DocumentOpening.write(Data("<?xml version=\"1.0\"?><FictionBooks/>".utf8), named: "root.fb2")
        let wrong = await DocumentOpening.failure(wrongRoot)
        #expect(wrong?.contains("is an XML document, not a publication") == true, "\(wrong ?? "opened")")

        let emptyBody = try DocumentOpening.write(Data("<?xml version=\"1.0\"?><FictionBook><body/></FictionBook>".utf8),
                                                  named: "empty.fb2")
        let empty = await DocumentOpening.failure(emptyBody)
        #expect(empty?.contains("its <body> is empty") == true, "\(empty ?? "opened")")

        let zipPath = Fixtures.temporaryDirectory("fb2zip-huge") + "/huge.fb2.zip"
        try ZipBuilder.write([.init("huge.fb2", Self.book(), compression: .stored)], to: zipPath)
        var archive = try Data(contentsOf: URL(fileURLWithPath: zipPath))
        try ZipSurgery.setUncompressedSize(0xFFFF_FF00, of: "huge.fb2", in: &archive)
        try archive.write(to: URL(fileURLWithPath: zipPath))
        let huge = await DocumentOpening.failure(zipPath)
        #expect(huge?.contains("more than the 128 MB Lectern reads") == true, "\(huge ?? "opened")")
    }
}

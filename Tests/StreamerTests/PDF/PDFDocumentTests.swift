import Foundation
@testable import LibPoppler
import Testing
import TestSupport

/// The poppler wrapper on the sample PDFs and on PDFs the tests write.
@Suite struct PDFDocumentTests {
    static let fourPages = Fixtures.sample("pdf/pypdf-pdflatex-4-pages.pdf")
    static let daisy = Fixtures.sample("lcp/swifttoolkit-daisy.pdf")

    @Test func opensFromAPathAndFromBytesAlike() throws {
        let fromFile = try PDFDocument(path: Self.fourPages)
        let fromBytes = try PDFDocument(data: Fixtures.bytes(Self.fourPages))
        #expect(fromFile.pageCount == 4)
        #expect(fromBytes.pageCount == 4)
        #expect(fromFile.metadata == fromBytes.metadata)
        #expect(fromFile.text(ofPage: 2) == fromBytes.text(ofPage: 2))
        #expect(fromFile.permissions == .all)
    }

    @Test func relativePathsAndPathsWithSpacesOpen() throws {
        let folder = Fixtures.temporaryDirectory("pdf path")
        let path = folder + "/a b #1 é.pdf"
        try FileManager.default.copyItem(atPath: Self.fourPages, toPath: path)
        #expect(try PDFDocument(path: path).pageCount == 4)
        // A relative path, whatever the working directory: up to the root, then down.
        let depth = FileManager.default.currentDirectoryPath.split(separator: "/").count
        let relative = String(repeating: "../", count: depth) + Self.fourPages.dropFirst()
        #expect(try PDFDocument(path: relative).pageCount == 4)
    }

    @Test func readsTheDocumentInformation() throws {
        let daisy = try PDFDocument(path: Self.daisy)
        #expect(daisy.pageCount == 80)
        #expect(daisy.metadata.title == "Daisy Miller")
        #expect(daisy.metadata.author == "Henry James")
        #expect(daisy.metadata.keywords == nil, "a blank /Keywords is no keywords")
        #expect(daisy.metadata.producer == "Acrobat Distiller 4.0 for Macintosh")
        #expect(daisy.metadata.creationDate == Date(timeIntervalSince1970: 937_476_785))

        let dummy = try PDFDocument(path: Fixtures.sample("pdf/w3c-wai-dummy.pdf"))
        #expect(dummy.metadata.author == "Evangelos Vlachogiannis", "UTF-16 strings are decoded")
        #expect(dummy.metadata.creator == "Writer")
        #expect(dummy.metadata.title == nil)
    }

    @Test func extractsTheTextOfEachPageOfThePdflatexSample() throws {
        let document = try PDFDocument(path: Self.fourPages)
        let pages = try (0..<4).map { try #require(document.text(ofPage: $0), "page \($0 + 1)") }
        // One text runs over the four pages; each page ends with its number, on a line of its
        // own (set apart as a block by the Streamer: PageStructureTests).
        let starts = ["Hello, here is some text without a meaning.", "information. Really? Is there no information?",
                      "you information about the selected font,", "in of the original language."]
        for (index, text) in pages.enumerated() {
            #expect(text.hasPrefix(starts[index]), "page \(index + 1)")
            #expect(text.split(separator: "\n").last == "\(index + 1)"[...], "page \(index + 1)")
            #expect(!text.unicodeScalars.contains { BidiText.isEmbeddingMark($0) })
        }
        #expect(pages[0].contains("“Huardest gefburn”? Kjift – not at all!"), "quotes and dashes")
        #expect(document.text(ofPage: 4) == nil)
        #expect(document.text(ofPage: -1) == nil)
    }

    @Test func rightToLeftTextOfTheArabicSampleIsInLogicalOrder() throws {
        let document = try PDFDocument(path: Fixtures.sample("pdf/pypdf-habibi-arabic.pdf"))
        let text = try #require(document.text(ofPage: 0))
        let logical = "\u{062D}\u{064E}\u{0628}\u{064A}\u{0628}\u{064A}"  // حَبيبي
        let reversed = String(logical.unicodeScalars.reversed().map(Character.init))
        #expect(text.contains(logical), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        #expect(!text.contains(reversed))
        #expect(text.contains("habibi"))
        #expect(!text.unicodeScalars.contains { BidiText.isEmbeddingMark($0) })
    }

    /// Glyphs drawn left to right in visual order, as shaping engines emit them.
    @Test func arabicDrawnInVisualOrderComesOutLogical() throws {
        let builder = PDFBuilder.text(pages: ["BT /F1 12 Tf 20 100 Td (HHH DCDCBA) Tj ET"], arabic: true)
        let document = try PDFDocument(data: builder.data)
        let text = try #require(document.text(ofPage: 0))
        #expect(text.contains("\u{062D}\u{064E}\u{0628}\u{064A}\u{0628}\u{064A}"), "\(text)")
        #expect(text.contains("hhh"))
    }

    /// Glyphs placed one by one from right to left: poppler's selection from the top-left
    /// corner loses them; the selection from the top-right one finds them.
    @Test func arabicDrawnRightToLeftIsNotLost() throws {
        var content = "BT /F1 12 Tf 20 100 Td (HHH ) Tj ET"
        for (offset, glyph) in ["A", "B", "C", "D", "C", "D"].enumerated() {
            content += "\nBT /F1 12 Tf \(140 - 7 * offset) 100 Td (\(glyph)) Tj ET"
        }
        let document = try PDFDocument(data: PDFBuilder.text(pages: [content], arabic: true).data)
        let text = try #require(document.text(ofPage: 0))
        let letters = text.unicodeScalars.filter { BidiText.isRightToLeft($0) }
        #expect(String(String.UnicodeScalarView(letters)) == "\u{062D}\u{064E}\u{0628}\u{064A}\u{0628}\u{064A}", "\(text)")
        #expect(text.contains("hhh"))
    }

    @Test func pageLabelsComeFromTheDocument() throws {
        let daisy = try PDFDocument(path: Self.daisy)
        let labels = daisy.pageLabels()
        #expect(labels.count == 80)
        #expect(Array(labels.prefix(4)) == ["C", "i", "ii", "iii"])
        #expect(labels[5] == "1")
        #expect(daisy.pageLabel(at: 1) == "i")
        #expect(daisy.pageLabel(at: 80) == nil)
        // Without /PageLabels, poppler numbers the pages.
        #expect(try PDFDocument(path: Self.fourPages).pageLabels() == ["1", "2", "3", "4"])
    }

    @Test func outlineResolvesNamedDestinations() throws {
        let document = try PDFDocument(path: Fixtures.sample("pdf/pypdf-pdflatex-outline.pdf"))
        let outline = document.outline()
        #expect(outline.map(\.title) == ["Foo", "Bar", "Baz", "Foo", "Bar", "Baz", "Foo", "Bar", "Baz"])
        #expect(outline.map(\.pageIndex) == [1, 1, 1, 1, 2, 2, 2, 3, 3])
        #expect(try PDFDocument(path: Self.fourPages).outline().isEmpty)
        // An explicit destination.
        #expect(try PDFDocument(path: Fixtures.sample("pdf/w3c-wai-dummy.pdf")).outline()
            == [PDFOutlineItem(title: "Dummy PDF file", pageIndex: 0)])
    }

    @Test func nestedOutlineKeepsItsTree() throws {
        var builder = PDFBuilder.text(pages: ["One", "Two", "Three"], catalogExtra: "/Outlines 10 0 R /Names << /Dests 15 0 R >>")
        // Objects 4..9 are the pages and their contents.
        builder.add("<< /Type /Outlines /First 11 0 R /Last 14 0 R /Count 4 >>")                             // 10
        builder.add("<< /Title (Part I) /Parent 10 0 R /Next 14 0 R /First 12 0 R /Last 13 0 R /Count 2 /Dest [4 0 R /Fit] >>") // 11
        builder.add("<< /Title (Chapter 1) /Parent 11 0 R /Next 13 0 R /Dest [6 0 R /XYZ 0 200 0] >>")         // 12
        builder.add("<< /Title (Chapter 2) /Parent 11 0 R /Prev 12 0 R /Dest (ch2) >>")                       // 13
        builder.add("<< /Title (Web) /Parent 10 0 R /Prev 11 0 R /A << /S /URI /URI (https://example.org/) >> >>") // 14
        builder.add("<< /Names [(ch2) [8 0 R /Fit]] >>")                                                     // 15
        let document = try PDFDocument(data: builder.data)
        #expect(document.outline() == [
            PDFOutlineItem(title: "Part I", pageIndex: 0, children: [
                PDFOutlineItem(title: "Chapter 1", pageIndex: 1),
                PDFOutlineItem(title: "Chapter 2", pageIndex: 2),
            ]),
            PDFOutlineItem(title: "Web", uri: "https://example.org/"),
        ])
        #expect(document.outline(maxDepth: 1).first?.children == [])
        #expect(document.outline(maxItems: 2).count == 1)
    }

    @Test func permissionsIncludeTheOwnerPassword() throws {
        let ownerOnly = Fixtures.sample("pdf/qpdf-aes256-owner-only.pdf")
        let asUser = try PDFDocument(path: ownerOnly)
        #expect(!asUser.permissions.contains(.print))
        #expect(!asUser.permissions.contains(.copy))
        let asOwner = try PDFDocument(path: ownerOnly, password: "owner-secret")
        #expect(asOwner.permissions.isSuperset(of: [.print, .copy]))

        let userAndOwner = Fixtures.sample("pdf/qpdf-aes256-user-open-sesame.pdf")
        #expect(try !PDFDocument(path: userAndOwner, password: "open sesame").permissions.contains(.copy))
        #expect(try PDFDocument(path: userAndOwner, password: "owner-secret").permissions.isSuperset(of: [.print, .copy]))
    }

    @Test(arguments: [
        ("pdf/qpdf-aes256-user-open-sesame.pdf", "open sesame"),
        ("pdf/qpdf-rc4-128-user-open-sesame.pdf", "open sesame"),
        ("pdf/pypdf-libreoffice-writer-password.pdf", "openpassword"),
        ("pdf/pypdf-libreoffice-writer-password.pdf", "permissionpassword"),
    ])
    func encryptedDocumentsNeedTheirPassword(sample: String, password: String) throws {
        let path = Fixtures.sample(sample)
        #expect(throws: PDFError.passwordRequired) { try PDFDocument(path: path) }
        #expect(throws: PDFError.passwordRequired) { try PDFDocument(path: path, password: "wrong") }
        #expect(throws: PDFError.passwordRequired) { try PDFDocument(data: Fixtures.bytes(path), password: "wrong") }
        let document = try PDFDocument(data: Fixtures.bytes(path), password: password)
        #expect(document.pageCount >= 1)
        #expect(document.text(ofPage: 0)?.isEmpty == false)
    }

    @Test func missingFilesAndOtherDomainsAreNotMistakenForPasswords() {
        #expect {
            try PDFDocument(path: "/nonexistent/file.pdf")
        } throws: { error in
            guard case PDFError.cannotOpen = error else { return false }
            return true
        }
        #expect {
            try PDFDocument(path: Fixtures.sample("pdf"))
        } throws: { error in
            (error as? PDFError).map { $0 != .passwordRequired } ?? false
        }
    }

    @Test func closedDocumentsGiveNothing() throws {
        let document = try PDFDocument(path: Self.fourPages)
        document.close()
        #expect(document.text(ofPage: 0) == nil)
        #expect(document.outline().isEmpty)
        #expect(document.pageLabels().isEmpty)
        document.close()
    }

    /// One document, many tasks: calls are serialised by the document's lock.
    @Test func oneDocumentIsReadFromManyTasks() async throws {
        let document = try PDFDocument(path: Self.daisy)
        let expected = (0..<8).map { document.text(ofPage: $0 * 10) }
        let results = await withTaskGroup(of: (Int, String?).self) { group in
            for round in 0..<4 {
                for index in 0..<8 {
                    group.addTask { (index, round.isMultiple(of: 2) ? document.text(ofPage: index * 10) : try? PDFDocument(path: Self.daisy).text(ofPage: index * 10)) }
                }
            }
            var results: [(Int, String?)] = []
            for await result in group { results.append(result) }
            return results
        }
        #expect(results.count == 32)
        for (index, text) in results { #expect(text == expected[index], "page \(index * 10)") }
    }
}

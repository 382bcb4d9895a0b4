import Foundation
import Testing
import TestSupport

/// DOCX, ODT and RTF read through pandoc (#34): without pandoc they are refused with a message
/// naming the Debian package; with it (in the Makefile's APT_PACKAGES) they read as the same
/// book as EPUB — `info --json` format, title and contents, `check`, `render`.
@Suite struct PandocCommandTests {
    let lectern = LecternProcess()

    /// The storm book of the other document formats as Markdown, the source pandoc converts.
    static var markdown: String {
        "---\ntitle: Storm Book\nauthor: Ann Author\n---\n\n# CHAPTER I.\n\n" + DocumentFixtures.paragraphs.joined(separator: "\n\n")
            + "\n\n# CHAPTER II.\n\n" + DocumentFixtures.secondChapter.joined(separator: "\n\n") + "\n"
    }

    @Test func withoutPandocTheDocumentIsRefusedNamingThePackage() throws {
        // A folder with no pandoc in it is the whole PATH.
        let folder = Fixtures.temporaryDirectory("pandoc-missing")
        let rtf = #"{\rtf1\ansi{\fonttbl\f0 Times;}\f0\pard CHAPTER I.\par The harbour master counted the lanterns.\par}"#
        try Data(rtf.utf8).write(to: URL(fileURLWithPath: folder + "/memo.rtf"))
        let types = #"<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>"#
        let document = #"<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>"#
        try ZipBuilder.write([.init("[Content_Types].xml", types), .init("word/document.xml", document)], to: folder + "/memo.docx")
        for (name, format) in [("memo.rtf", "RTF"), ("memo.docx", "DOCX")] {
            let result = try lectern.run(["info", folder + "/" + name], environment: ["PATH": folder + "/empty"])
            #expect(result.status == 2, "\(name): \(result.stdout) \(result.stderr)")
            #expect(result.stderr.contains("\(format) documents are read through pandoc, which is not installed"), "\(result.stderr)")
            #expect(result.stderr.contains("Debian package pandoc"), "\(result.stderr)")
        }
    }

    @Test func docxOdtAndRtfReadAsTheEPUBDoes() throws {
        let pandoc = ProcessInfo.processInfo.environment["PATH", default: ""].split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: $0 + "/pandoc") }
        try #require(pandoc, "pandoc is in the Makefile's APT_PACKAGES: run `make deps`")
        let paths = try DocumentFixtures.write()
        let epubPath = try #require(paths["storm.epub"])
        let folder = (epubPath as NSString).deletingLastPathComponent
        try Data(Self.markdown.utf8).write(to: URL(fileURLWithPath: folder + "/storm-source.md"))
        let epub = try lectern.run(["render", "--width", "60", epubPath])
        #expect(epub.status == 0, "\(epub.stderr)")
        for format in ["docx", "odt", "rtf"] {
            let path = folder + "/storm." + format
            try Command.run(["pandoc", "--standalone", "-o", path, "storm-source.md"], in: folder)
            let info = try lectern.run(["info", "--json", path])
            #expect(info.status == 0, "\(format): \(info.stderr)")
            let object = try #require(info.json as? [String: Any], "\(format): \(info.stdout)")
            #expect(object["format"] as? String == format)
            let manifest = try #require(object["manifest"] as? [String: Any])
            let toc = (manifest["toc"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
            #expect(toc == ["CHAPTER I.", "CHAPTER II."], "\(format): \(toc)")
            if format == "docx" {
                let metadata = try #require(manifest["metadata"] as? [String: Any])
                #expect(metadata["title"] as? String == "Storm Book")
            }
            let check = try lectern.run(["check", path])
            #expect(check.status == 0, "\(format): \(check.stdout) \(check.stderr)")
            let render = try lectern.run(["render", "--width", "60", path])
            #expect(render.status == 0, "\(format): \(render.stderr)")
            // pandoc writes the title and the author at the top of the page; the EPUB has neither.
            var words = DocumentFixtures.words(render.stdout)
            for word in ["storm", "book", "ann", "author"] {
                if let index = words.firstIndex(of: word) { words.remove(at: index) }
            }
            let difference = DocumentFixtures.difference(words, DocumentFixtures.words(epub.stdout))
            #expect(difference <= 0.02, "\(format): \(difference)\n\(render.stdout)\n--- EPUB:\n\(epub.stdout)")
        }
    }
}

extension PandocCommandTests {
    /// Hostile documents end in a clear error, with nothing from the file written raw: a DOCX cut
    /// in half (no ZIP directory), an RTF pandoc cannot read (an escape sequence and a huge
    /// `\bin` length in it), and a DOCX whose document part is not XML.
    @Test func damagedDocumentsAreRefusedClearly() throws {
        let folder = Fixtures.temporaryDirectory("pandoc-hostile")
        try Data(Self.markdown.utf8).write(to: URL(fileURLWithPath: folder + "/source.md"))
        try Command.run(["pandoc", "--standalone", "-o", "whole.docx", "source.md"], in: folder)
        let whole = try Data(contentsOf: URL(fileURLWithPath: folder + "/whole.docx"))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: folder + "/cut.docx"))
        try Data("{\\rtf1 \u{1B}[31m\\bin999999999 x".utf8).write(to: URL(fileURLWithPath: folder + "/bad.rtf"))
        let types = #"<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>"#
        try ZipBuilder.write([.init("[Content_Types].xml", types), .init("word/document.xml", "\u{1B}[2J<w:document")],
                             to: folder + "/garbled.docx")
        for (name, expected) in [("cut.docx", "damaged"), ("bad.rtf", "pandoc could not convert it"),
                                 ("garbled.docx", "pandoc could not convert it")] {
            let result = try lectern.run(["check", folder + "/" + name])
            #expect(result.status == 2, "\(name): \(result.stdout) \(result.stderr)")
            #expect(result.stderr.contains(expected), "\(name): \(result.stderr)")
            #expect(!result.stderr.contains("\u{1B}") && !result.stdout.contains("\u{1B}"), "\(name): an escape written raw")
        }
    }
}

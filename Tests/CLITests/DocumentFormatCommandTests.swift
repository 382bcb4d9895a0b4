import Foundation
import Testing
import TestSupport

/// Plain text, Markdown, HTML, FB2 and FB2.zip through the command line as a person uses it:
/// `info --json`, `check`, `render` (the same words as the same book as EPUB), library search,
/// a place found reopened, and hostile files refused with a clear message (#34).
@Suite struct DocumentFormatCommandTests {
    let lectern = LecternProcess()

    static let formats = [
        ("storm.txt", "text"), ("storm.md", "markdown"), ("storm.html", "html"), ("storm.fb2", "fb2"), ("storm.fb2.zip", "fb2-zip"),
    ]

    @Test func infoCheckAndRenderMatchTheEPUB() throws {
        let paths = try DocumentFixtures.write()
        let epub = try lectern.run(["render", "--width", "60", try #require(paths["storm.epub"])])
        #expect(epub.status == 0, "\(epub.stderr)")
        for (name, format) in Self.formats {
            let path = try #require(paths[name])
            let info = try lectern.run(["info", "--json", path])
            #expect(info.status == 0, "\(name): \(info.stderr)")
            let object = try #require(info.json as? [String: Any], "\(name): \(info.stdout)")
            #expect(object["format"] as? String == format)
            let manifest = try #require(object["manifest"] as? [String: Any])
            let metadata = try #require(manifest["metadata"] as? [String: Any])
            if name != "storm.md" { #expect(metadata["title"] as? String == "Storm Book", "\(name)") }
            let toc = (manifest["toc"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
            if name != "storm.html" { #expect(toc == ["CHAPTER I.", "CHAPTER II."], "\(name): \(toc)") }

            let check = try lectern.run(["check", path])
            #expect(check.status == 0, "\(name): \(check.stdout) \(check.stderr)")

            let render = try lectern.run(["render", "--width", "60", path])
            #expect(render.status == 0, "\(name): \(render.stderr)")
            let difference = DocumentFixtures.difference(DocumentFixtures.words(render.stdout), DocumentFixtures.words(epub.stdout))
            #expect(difference <= 0.02, "\(name): \(difference)\n\(render.stdout)\n--- EPUB:\n\(epub.stdout)")
        }
    }

    @Test func librarySearchFindsAPlaceThatReopens() throws {
        let paths = try DocumentFixtures.write()
        for (name, _) in Self.formats {
            let home = LecternProcess()
            let path = try #require(paths[name])
            let imported = try home.run(["import", path])
            #expect(imported.status == 0, "\(name): \(imported.stderr)")
            let search = try home.run(["search", "--json", "zeppelin"])
            #expect(search.status == 0, "\(name): \(search.stderr)")
            let hits = try #require(search.json as? [[String: Any]], "\(name): \(search.stdout)")
            let locator = try #require(hits.first?["locator"] as? [String: Any])
            let href = try #require(locator["href"] as? String)
            // Another process opens the book again: the place names the same text.
            let place = try home.run(["render", "--width", "200", "--href", href, path])
            #expect(place.status == 0, "\(name): \(place.stderr)")
            #expect(place.stdout.contains("found a zeppelin among them"), "\(name) \(href): \(place.stdout)")
        }
    }

    @Test func hostileDocumentsEndInClearErrors() throws {
        let folder = Fixtures.temporaryDirectory("hostile-documents")
        func attempt(_ name: String, _ bytes: Data) throws -> LecternProcess.Result {
            try bytes.write(to: URL(fileURLWithPath: folder + "/" + name))
            return try lectern.run(["info", folder + "/" + name])
        }
        let binary = try attempt("binary.txt", Data([0x7F, 0x45, 0x4C, 0x46, 0, 0, 0, 1, 2, 3]))
        #expect(binary.status == 2)
        #expect(binary.stderr.contains("it is not text (binary content)"), "\(binary.stderr)")

        let laughs = DocumentFixtures.fb2.replacing("<FictionBook ", with: """
            <!DOCTYPE FictionBook [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>
            <FictionBook 
            """)
        let refused = try attempt("laughs.fb2", Data(laughs.utf8))
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("declares a document type"), "\(refused.stderr)")

        let whole = Data(DocumentFixtures.fb2.utf8)
        let truncated = try attempt("cut.fb2", whole.prefix(whole.count / 3))
        #expect(truncated.status == 2)
        #expect(truncated.stderr.contains("no <body> (truncated file?)"), "\(truncated.stderr)")

        let markedUTF16 = try attempt("odd.txt", Data([0xFE, 0xFF, 0x00, 0x41, 0x00]))
        #expect(markedUTF16.status == 2)
        #expect(markedUTF16.stderr.contains("not valid UTF-16BE"), "\(markedUTF16.stderr)")
    }
}

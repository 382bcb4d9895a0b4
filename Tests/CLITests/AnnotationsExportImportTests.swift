import Foundation
import Testing
import TestSupport

/// `lectern annotations export` and `import`, run as processes: files never overwritten
/// without --force, a Readium round trip between two libraries, KOReader's metadata, a new
/// edition (re-anchored and orphaned annotations) and hostile files.
@Suite struct AnnotationsExportImportTests {
    let lectern = LecternProcess()
    let folder = Fixtures.temporaryDirectory("annotations-export")

    func wasteland(_ name: String = "wasteland.epub") throws -> String {
        let path = folder + "/" + name
        try FileManager.default.copyItem(atPath: Fixtures.sample("epub/idpf-wasteland.epub"), toPath: path)
        return path
    }

    func annotate(_ path: String, _ quote: String, _ extra: [String] = [], with process: LecternProcess? = nil) throws -> String {
        let result = try (process ?? lectern).run(["annotate", path, "--quote", quote] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func list(_ path: String, with process: LecternProcess? = nil, timeout: TimeInterval = 60) throws -> [[String: Any]] {
        let result = try (process ?? lectern).run(["annotations", path, "--json"], timeout: timeout)
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(result.json as? [[String: Any]], "\(result.stdout)")
    }

    /// A JSON file without its `generated` dates (the only thing two exports may differ in).
    func withoutDates(_ path: String) throws -> NSObject {
        func strip(_ value: Any) -> Any {
            if let object = value as? [String: Any] {
                return object.filter { $0.key != "generated" }.mapValues(strip)
            }
            if let array = value as? [Any] { return array.map(strip) }
            return value
        }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)), options: [.fragmentsAllowed])
        return try #require(strip(json) as? NSObject)
    }

    @Test func anExistingFileIsReplacedOnlyWithForce() throws {
        let path = try wasteland()
        _ = try annotate(path, "April is the cruellest month", ["--note", "mine"])
        let output = folder + "/out.md"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: output))
        let refused = try lectern.run(["annotations", "export", path, "--format", "markdown", "--output", output])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("already exists") && refused.stderr.contains("--force"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "keep me")
        let forced = try lectern.run(["annotations", "export", path, "--format", "markdown", "--output", output, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        let markdown = try String(contentsOfFile: output, encoding: .utf8)
        #expect(markdown.contains("April is the cruellest month") && markdown.contains("mine"))
        // To standard output without --output.
        let printed = try lectern.run(["annotations", "export", "--all", "--format", "org"])
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(printed.stdout.contains("April is the cruellest month"))
    }

    @Test func aReadiumExportImportedIntoAnotherLibraryExportsTheSame() throws {
        let path = try wasteland()
        _ = try annotate(path, "April is the cruellest month", ["--color", "blue", "--note", "**bold** thought\nsecond line"])
        _ = try annotate(path, "Unreal City", ["--occurrence", "2", "--style", "strikethrough"])
        let first = folder + "/first.annotation"
        let exported = try lectern.run(["annotations", "export", path, "--format", "readium", "--output", first])
        #expect(exported.status == 0, "\(exported.stderr)")

        let other = LecternProcess()
        let copy = try wasteland("elsewhere.epub")
        let imported = try other.run(["annotations", "import", first, "--into", copy])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("2 imported — 2 placed, 0 re-anchored, 0 orphaned"), "\(imported.stdout)")
        let second = folder + "/second.annotation"
        #expect(try other.run(["annotations", "export", copy, "--format", "readium", "--output", second]).status == 0)
        #expect(try withoutDates(first) == withoutDates(second))

        // The same passages: the same ranges as where they were made.
        let here = try list(path), there = try list(copy, with: other)
        #expect(here.map { $0["textRange"] as? [Int] } == there.map { $0["textRange"] as? [Int] })
        #expect(here.map { $0["quote"] as? String } == there.map { $0["quote"] as? String })
        #expect(here.map { $0["note"] as? String } == there.map { $0["note"] as? String })

        // Without --into, the library's book with the same identifier is found.
        let third = LecternProcess()
        #expect(try third.run(["annotations", "import", first]).status == 1)
        let shelved = try wasteland("shelved.epub")
        #expect(try third.run(["import", "--no-index", shelved]).status == 0)
        let found = try third.run(["annotations", "import", first])
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdout.contains("2 imported — 2 placed"), "\(found.stdout)")
    }

    @Test func koreaderMetadataLandsOnTheSamePassage() throws {
        let path = try wasteland()
        let reference = try annotate(path, "April is the cruellest month")
        let expected = try #require(try list(path).first { $0["id"] as? String == reference }?["textRange"] as? [Int])
        let sdr = folder + "/other.sdr"
        try FileManager.default.createDirectory(atPath: sdr, withIntermediateDirectories: true)
        // KOReader's readerannotation.lua structure: pos0/pos1 crengine XPointers into the
        // first spine item (DocFragment[1]), the highlighted text, a note, a colour.
        try """
            -- we can read Lua syntax here!
            return {
                ["annotations"] = {
                    [1] = {
                        ["chapter"] = "I. THE BURIAL OF THE DEAD",
                        ["color"] = "green",
                        ["datetime"] = "2024-03-02 10:11:12",
                        ["drawer"] = "lighten",
                        ["note"] = "from KOReader",
                        ["pos0"] = "/body/DocFragment[1]/body/section/div[1]/p[1]/text().0",
                        ["pos1"] = "/body/DocFragment[1]/body/section/div[1]/p[1]/text().28",
                        ["text"] = "April is the cruellest month",
                    },
                },
                ["doc_props"] = { ["title"] = "The Waste Land" },
                ["partial_md5_checksum"] = "0123456789abcdef0123456789abcdef",
            }
            """.write(toFile: sdr + "/metadata.epub.lua", atomically: true, encoding: .utf8)
        let imported = try lectern.run(["annotations", "import", sdr, "--into", path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("1 imported") && imported.stdout.contains("0 orphaned"), "\(imported.stdout)")
        let koreader = try #require(try list(path).first { $0["note"] as? String == "from KOReader" })
        #expect(koreader["textRange"] as? [Int] == expected)
        #expect(koreader["color"] as? String == "green")
    }

    @Test func aNewEditionReanchorsAndKeepsOrphans() throws {
        let first = folder + "/first-edition.epub", second = folder + "/second-edition.epub"
        try TestEPUBs.write(title: "Editions", identifier: "urn:test:editions",
                            body: "<p>A first paragraph that stays.</p><p>The quick brown fox jumps over the dog.</p><p>A sentence the new edition cuts.</p>",
                            to: first)
        try TestEPUBs.write(title: "Editions", identifier: "urn:test:editions",
                            body: "<p>An inserted paragraph, new in this edition.</p><p>A first paragraph that stays.</p><p>The quick\n   brown fox jumps over the dog.</p>",
                            to: second)
        let fox = try annotate(first, "quick brown fox")
        let cut = try annotate(first, "sentence the new edition cuts", ["--note", "still mine"])
        let export = folder + "/editions.json"
        #expect(try lectern.run(["annotations", "export", first, "--format", "json", "--output", export]).status == 0)
        let other = LecternProcess()
        let imported = try other.run(["annotations", "import", export, "--into", second])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("2 imported — 0 placed, 1 re-anchored, 1 orphaned"), "\(imported.stdout)")
        let items = try list(second, with: other)
        let moved = try #require(items.first { $0["id"] as? String == fox })
        #expect(moved["orphaned"] as? Bool == false)
        let range = try #require(moved["textRange"] as? [Int])
        let text = try other.run(["render", second, "--width", "200"]).stdout
        #expect(text.contains("quick brown fox"))
        #expect(range[1] - range[0] == "quick brown fox".count)
        let orphan = try #require(items.first { $0["id"] as? String == cut })
        #expect(orphan["orphaned"] as? Bool == true)
        #expect(orphan["note"] as? String == "still mine")
        let listed = try other.run(["annotations", second])
        #expect(listed.stdout.contains("[orphaned]"))
    }

    @Test func hostileFilesAreRefusedAndLoseNothing() throws {
        let path = try wasteland()
        let kept = try annotate(path, "Shantih", ["--note", "kept"])
        let malformed = folder + "/malformed.json"
        try Data(#"{"format": "lectern-annotations", "publications": [ {"#.utf8).write(to: URL(fileURLWithPath: malformed))
        let refused = try lectern.run(["annotations", "import", malformed, "--into", path])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("not valid JSON"), "\(refused.stderr)")
        let unknown = try lectern.run(["annotations", "import", path, "--into", path])
        #expect(unknown.status == 2)

        // Escape sequences, and places outside the book.
        let hostile = folder + "/hostile.json"
        try """
            {"format": "lectern-annotations", "version": 1, "publications": [{"title": "x", "annotations": [
              {"id": "h1", "created": "2024-01-01T00:00:00Z", "modified": "2024-01-01T00:00:00Z", "color": "pink", "style": "solid",
               "note": "\\u001b]52;c;aGk=\\u0007 \\u001b[2J gotcha", "tags": [],
               "target": {"href": "../../etc/passwd", "textRange": [999999, 1000005], "quote": {"exact": "\\u001b[31mnot in the book", "prefix": "", "suffix": ""}, "headings": []}}
            ]}]}
            """.write(toFile: hostile, atomically: true, encoding: .utf8)
        let imported = try lectern.run(["annotations", "import", hostile, "--into", path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("1 orphaned"), "\(imported.stdout)")
        let text = try lectern.run(["annotations", path])
        #expect(!text.stdout.contains("\u{1B}") && !text.stdout.contains("\u{07}"), "\(text.stdout)")
        #expect(text.stdout.contains("gotcha") && text.stdout.contains("[orphaned]"))
        #expect(try list(path).contains { $0["id"] as? String == kept && $0["note"] as? String == "kept" })
    }

    @Test func aHundredThousandAnnotationsImport() throws {
        let path = try wasteland()
        let reference = try annotate(path, "April is the cruellest month")
        let json = folder + "/many.json"
        #expect(try lectern.run(["annotations", "export", path, "--format", "json", "--output", json]).status == 0)
        var root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        var publications = try #require(root["publications"] as? [[String: Any]])
        let template = try #require((publications[0]["annotations"] as? [[String: Any]])?.first)
        publications[0]["annotations"] = (0..<100_000).map { index -> [String: Any] in
            var copy = template
            copy["id"] = String(format: "00000000-0000-4000-8000-%012d", index)
            return copy
        }
        root["publications"] = publications
        try JSONSerialization.data(withJSONObject: root).write(to: URL(fileURLWithPath: json))
        let imported = try lectern.run(["annotations", "import", json, "--into", path], timeout: 600)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("100000 imported — 100000 placed"), "\(imported.stdout)")
        let listed = try list(path, timeout: 600)
        #expect(listed.count == 100_001)
        #expect(listed.contains { $0["id"] as? String == reference })
    }
}

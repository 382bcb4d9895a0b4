import Foundation
import Testing
import TestSupport

/// `lectern annotate`, `lectern annotations [list]` and `lectern annotations remove`, run as
/// processes in a fresh XDG home, on the wasteland sample.
@Suite struct AnnotateCommandTests {
    let lectern = LecternProcess()

    /// A copy of the wasteland sample (the library records its path).
    func book() throws -> String {
        let path = Fixtures.temporaryDirectory("annotate-book") + "/wasteland.epub"
        try FileManager.default.copyItem(atPath: Fixtures.sample("epub/idpf-wasteland.epub"), toPath: path)
        return path
    }

    func list(_ path: String, _ extra: [String] = []) throws -> [[String: Any]] {
        let result = try lectern.run(["annotations", path, "--json"] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(result.json as? [[String: Any]], "\(result.stdout)")
    }

    @Test func aQuoteIsHighlightedWhereTheReaderCountsIt() throws {
        let path = try book()
        let made = try lectern.run(["annotate", path, "--quote", "April is the cruellest month", "--color", "green",
                                    "--style", "underline", "--note", "first line\nsecond line"])
        #expect(made.status == 0, "\(made.stderr)")
        let id = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(UUID(uuidString: id) != nil, "\(made.stdout)")

        let items = try list(path)
        #expect(items.count == 1)
        let item = try #require(items.first)
        #expect(item["id"] as? String == id)
        #expect(item["quote"] as? String == "April is the cruellest month")
        #expect(item["note"] as? String == "first line\nsecond line")
        #expect(item["color"] as? String == "green")
        #expect(item["style"] as? String == "underline")
        #expect(item["chapter"] as? String == "I. THE BURIAL OF THE DEAD")
        #expect(item["href"] as? String == "EPUB/wasteland-content.xhtml")
        #expect(item["orphaned"] as? Bool == false)
        let range = try #require(item["textRange"] as? [Int])
        #expect(range[1] - range[0] == "April is the cruellest month".count)
        #expect((item["suffix"] as? String)?.hasPrefix(", breeding") == true)
        #expect((item["prefix"] as? String)?.count == 32)
        let progression = try #require(item["totalProgression"] as? Double)
        #expect(progression > 0 && progression < 0.2)

        let text = try lectern.run(["annotations", path])
        #expect(text.status == 0)
        #expect(text.stdout.contains(id) && text.stdout.contains("“April is the cruellest month”"))
        #expect(text.stdout.contains("  > first line\n  > second line"), "\(text.stdout)")
    }

    @Test func occurrencesAreCountedInReadingOrderAndAMissingQuoteExitsTwo() throws {
        let path = try book()
        let second = try lectern.run(["annotate", path, "--quote", "Unreal City", "--occurrence", "2"])
        #expect(second.status == 0, "\(second.stderr)")
        let first = try lectern.run(["annotate", path, "--quote", "Unreal City"])
        #expect(first.status == 0, "\(first.stderr)")
        let items = try list(path)
        // Listed in reading order, whatever the order they were made in.
        #expect(items.map { $0["id"] as? String } == [first.stdout, second.stdout].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        let ranges = items.compactMap { $0["textRange"] as? [Int] }
        #expect(ranges.count == 2 && ranges[0][0] < ranges[1][0])

        let third = try lectern.run(["annotate", path, "--quote", "Unreal City", "--occurrence", "3"])
        #expect(third.status == 2)
        #expect(third.stderr.contains("occurs 2 time(s), not 3"), "\(third.stderr)")
        let missing = try lectern.run(["annotate", path, "--quote", "words that are not in the poem"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("the text is not in the book"), "\(missing.stderr)")
        #expect(try list(path).count == 2)
    }

    @Test func removingLeavesNoAnnotationListed() throws {
        let path = try book()
        let made = try lectern.run(["annotate", path, "--quote", "Shantih", "--note", "peace"])
        let id = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try list(path).count == 1)
        let removed = try lectern.run(["annotations", "remove", path, id])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try list(path).isEmpty)
        let again = try lectern.run(["annotations", "remove", path, id])
        #expect(again.status == 2)
        #expect(again.stderr.contains("no annotation"))
    }

    @Test func notesAndQuotesAreShownSafely() throws {
        let path = try book()
        let made = try lectern.run(["annotate", path, "--quote", "Shantih", "--note", "evil \u{1B}]52;c;aGk=\u{07} \u{1B}[2J note"])
        #expect(made.status == 0, "\(made.stderr)")
        let text = try lectern.run(["annotations", path])
        #expect(!text.stdout.contains("\u{1B}") && !text.stdout.contains("\u{07}"), "\(text.stdout)")
        #expect(text.stdout.contains("note"))
        // JSON keeps the note as typed, escaped.
        #expect(try list(path).first?["note"] as? String == "evil \u{1B}]52;c;aGk=\u{07} \u{1B}[2J note")
    }

    @Test func badOptionsAreRefusedBeforeAnythingIsStored() throws {
        let path = try book()
        #expect(try lectern.run(["annotate", path, "--quote", "Shantih", "--color", "mauve"]).status == 64)
        #expect(try lectern.run(["annotate", path, "--quote", "Shantih", "--occurrence", "0"]).status == 64)
        #expect(try lectern.run(["annotate", Fixtures.temporaryDirectory("none") + "/missing.epub", "--quote", "x"]).status == 2)
        #expect(try list(path).isEmpty)
    }
}

import Foundation
import Testing
import TestSupport

/// `lectern search` as a person reads it (#29 item 15): a hit names its book, its author only
/// when there is one, and its section by the table of contents' title (never a file name,
/// never percent-encoded); nothing found is said on stderr; no words at all is "no query" (2).
@Suite struct SearchOutputTests {
    let lectern = LecternProcess()

    @Test func hitsNameTheSectionAndLeaveOutAMissingAuthor() throws {
        let imported = try lectern.run(["import", Fixtures.sample("epub/epubcheck-epub2-ocf-filename-with-space-warning.epub"),
                                        Fixtures.sample("epub/idpf-moby-dick.epub")])
        #expect(imported.status == 0, "\(imported.stderr)")

        // No author, a file named with a space (content%20001.xhtml), a contents entry "Loomings".
        let minimal = try lectern.run(["search", "ishmael", "--limit", "50"])
        #expect(minimal.status == 0, "\(minimal.stderr)")
        let line = try #require(minimal.stdout.split(separator: "\n").first { $0.hasPrefix("Minimal EPUB 2.0") })
        #expect(line == "Minimal EPUB 2.0 — Loomings 65%")
        #expect(!minimal.stdout.contains("—  —"))
        #expect(!minimal.stdout.contains("%20"))
        #expect(!minimal.stdout.contains(".xhtml"))

        let moby = try lectern.run(["search", "harpooneer", "--limit", "3"])
        #expect(moby.status == 0, "\(moby.stderr)")
        let headings = moby.stdout.split(separator: "\n").filter { !$0.hasPrefix("  ") }
        #expect(headings.count == 3)
        for heading in headings {
            #expect(heading.hasPrefix("Moby-Dick — Herman Melville — "), "\(heading)")
            #expect(!heading.contains("OPS/"), "\(heading)")
        }

        let json = try lectern.run(["search", "ishmael", "--json", "--limit", "50"])
        let hits = try #require(json.json as? [[String: Any]])
        #expect(hits.contains { $0["section"] as? String == "Loomings" })
    }

    @Test func nothingFoundIsSaidAndNoWordsIsNoQuery() throws {
        _ = try lectern.run(["import", Fixtures.sample("epub/idpf-moby-dick.epub")])
        let missing = try lectern.run(["search", "xylophonequartz"])
        #expect(missing.status == 1)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr.contains("nothing found for xylophonequartz"))

        let none = try lectern.run(["search"])
        #expect(none.status == 2, "\(none.stderr)")
        #expect(none.stderr.contains("nothing to search for"))
    }
}

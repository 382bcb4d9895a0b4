import Foundation
import Testing
import TestSupport

/// `lectern import` indexes the text of what it adds; `lectern search` finds passages in every
/// unprotected publication (never in protected ones), as text or JSON with a locator to open
/// the hit at; `lectern index` catches up with what was not indexed.
@Suite struct LibrarySearchCommandTests {
    let lectern = LecternProcess()

    @Test func importedBooksAreSearchableAndHitsSayWhereToOpen() throws {
        let imported = try lectern.run(["import", Fixtures.sample("epub/idpf-moby-dick.epub"),
                                        Fixtures.sample("epub/idpf-kusamakura-preview.epub"),
                                        Fixtures.sample("protected-zip/derived-wasteland-pkzip-secret.epub")])
        #expect(imported.status == 0, "\(imported.stderr)")

        let found = try lectern.run(["search", "harpooneer", "--json", "--limit", "5"])
        #expect(found.status == 0, "\(found.stderr)")
        let hits = try #require(found.json as? [[String: Any]])
        #expect(hits.count == 5)
        for hit in hits {
            #expect(hit["title"] as? String == "Moby-Dick")
            #expect((hit["snippet"] as? String)?.lowercased().contains("harpooneer") == true)
            let locator = try #require(hit["locator"] as? [String: Any])
            #expect((locator["href"] as? String)?.hasPrefix("OPS/chapter_") == true)
            #expect(((locator["text"] as? [String: Any])?["highlight"] as? String)?.lowercased() == "harpooneer")
        }

        let japanese = try lectern.run(["search", "こう考えた"])
        #expect(japanese.status == 0)
        #expect(japanese.stdout.contains("Kusamakura"))
        #expect(japanese.stdout.contains("こう考えた"))
        // Nothing is indexed, nor pending, for the password-protected book.
        #expect(!japanese.stderr.contains("not indexed"))

        let missing = try lectern.run(["search", "xylophonequartz"])
        #expect(missing.status == 1)
        #expect(missing.stdout.isEmpty)

        let empty = try lectern.run(["search", "--", "*", "\"\""])
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("nothing to search for"))
    }

    @Test func queriesAreTextNeverSyntax() throws {
        _ = try lectern.run(["import", Fixtures.sample("epub/idpf-moby-dick.epub")])
        for query in ["NEAR(whale", "whale AND", "\"unbalanced", "col:umn", "^whale", "whale OR {x}", "'; DROP TABLE x; --"] {
            let result = try lectern.run(["search", query])
            #expect([0, 1].contains(result.status), "\(query): \(result.stderr)")
            #expect(!result.stderr.contains("SQLite"), "\(query): \(result.stderr)")
        }
    }

    @Test func importWithoutIndexLeavesThemPendingAndIndexCatchesUp() throws {
        _ = try lectern.run(["import", "--no-index", Fixtures.sample("epub/epubjs-alice.epub")])
        let before = try lectern.run(["search", "rabbit"])
        #expect(before.status == 1)
        #expect(before.stderr.contains("1 publication is not indexed yet"))
        let index = try lectern.run(["index"])
        #expect(index.status == 0)
        #expect(index.stdout.contains("indexed: 1 publication"))
        let after = try lectern.run(["search", "rabbit"])
        #expect(after.status == 0)
        #expect(after.stdout.contains("Alice"))
        #expect(!after.stderr.contains("not indexed"))
    }
}

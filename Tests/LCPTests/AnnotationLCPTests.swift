import Foundation
import Shared
import Testing
import TestSupport

/// Highlights of an LCP book, through the command line on a generated package (a license
/// signed by the test CA): quotes never in clear in the database file, back when the book
/// opens, sealed (not lost) when it cannot; exporting them consumes exactly their characters
/// from the copy allowance, and past it the export keeps places and notes without the quotes.
@Suite struct AnnotationLCPTests {
    let lectern = LecternProcess()
    let environment = ["LECTERN_LCP_ANCHORS": TestPKI.shared.directory + "/ca/ca.pem", "LECTERN_LCP_CRL_URL": "none"]

    static let first = "Zebras quietly graze"
    static let second = "beside violet mountains at dusk"
    static let chapter = """
        <?xml version="1.0" encoding="UTF-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml"><head><title>One</title></head><body>
        <p>Xylophonic preamble words. \(first) in the meadow, \(second), while quokkas whistle.</p>
        </body></html>
        """

    func run(_ arguments: [String]) throws -> LecternProcess.Result {
        try lectern.run(arguments, timeout: 120, environment: environment)
    }

    /// A book whose license allows copying `copy` characters.
    func book(copy: Int) throws -> String {
        var spec = LicenseSpec()
        spec.rights = JSONObject(["copy": .int(copy), "print": .int(10)])
        let license = try LicenseForge.make(spec)
        let path = Fixtures.temporaryDirectory("lcp-annotations") + "/book.epub"
        try PackageForge.epub(at: path, license: license, resources: [
            ForgedResource("OEBPS/chapter1.xhtml", Data(Self.chapter.utf8), mediaType: "application/xhtml+xml", deflate: true),
        ])
        return path
    }

    func charactersLeft(_ path: String) throws -> Int? {
        let result = try run(["consume-rights", path, "--times", "0"])
        return (result.json as? [String: Any])?["charactersLeft"] as? Int
    }

    /// The library database's files, as bytes on disk.
    var databaseBytes: Data {
        let base = lectern.home + "/data/lectern/library.sqlite"
        return ["", "-wal", "-journal"].reduce(into: Data()) { bytes, suffix in
            bytes += (try? Data(contentsOf: URL(fileURLWithPath: base + suffix))) ?? Data()
        }
    }

    @Test func quotesAreSealedInTheLibraryAndOpenWithTheBook() throws {
        let path = try book(copy: 1000)
        let made = try run(["annotate", path, "--passphrase", "open sesame", "--quote", Self.first, "--note", "my own note"])
        #expect(made.status == 0, "\(made.stderr)")
        // The passphrase is remembered: no secret on the second command line.
        let again = try run(["annotate", path, "--quote", Self.second, "--color", "pink"])
        #expect(again.status == 0, "\(again.stderr)")

        let bytes = databaseBytes
        #expect(!bytes.isEmpty)
        for text in [Self.first, Self.second, "Xylophonic", "quokkas", "meadow"] {
            for encoding in [String.Encoding.utf8, .utf16LittleEndian, .utf16BigEndian] {
                #expect(bytes.range(of: try #require(text.data(using: encoding))) == nil, "\(text) in clear in the database")
            }
        }
        // The note is the person's own text: kept in clear (and searchable).
        #expect(bytes.range(of: Data("my own note".utf8)) != nil)

        let listed = try run(["annotations", path, "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let items = try #require(listed.json as? [[String: Any]])
        #expect(items.map { $0["quote"] as? String } == [Self.first, Self.second])
        // Listing prints the quoted words only (through the copy right), never their context.
        #expect(items.allSatisfy { $0["prefix"] is NSNull && $0["suffix"] is NSNull })
        #expect(!listed.stdout.contains("meadow"))

        // Without the user key (forgotten), the annotations are there, their quotes sealed.
        _ = try Command.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1]); db.execute("DELETE FROM lcp_user_keys"); db.commit()
            """, [lectern.home + "/data/lectern/library.sqlite"])
        let locked = try run(["annotations", path, "--json"])
        #expect(locked.status == 0, "\(locked.stderr)")
        let sealed = try #require(locked.json as? [[String: Any]])
        #expect(sealed.count == 2)
        #expect(sealed.allSatisfy { $0["quote"] is NSNull && $0["quoteSealed"] as? Bool == true })
        #expect(sealed.first?["note"] as? String == "my own note")
        let text = try run(["annotations", path])
        #expect(text.stdout.contains("quote sealed"), "\(text.stdout)")
        // Annotating needs the book open: the protection refuses.
        #expect(try run(["annotate", path, "--quote", "quokkas"]).status == 3)
        // Exported without their quotes, saying why.
        let exported = try run(["annotations", "export", path, "--format", "markdown"])
        #expect(exported.status == 3)
        #expect(exported.stderr.contains("2 quote(s) left out: the book is locked"), "\(exported.stderr)")
        #expect(exported.stdout.contains("my own note") && !exported.stdout.contains(Self.first))
    }

    @Test func exportingQuotesConsumesExactlyTheirCharacters() throws {
        let path = try book(copy: 40)
        #expect(try run(["annotate", path, "--passphrase", "open sesame", "--quote", Self.first]).status == 0)
        #expect(try run(["annotate", path, "--quote", Self.second, "--note", "kept without its quote"]).status == 0)
        #expect(try charactersLeft(path) == 40)

        // The first quote (20 characters) fits; the second (31) no longer does.
        let output = Fixtures.temporaryDirectory("lcp-annotations-export") + "/export.json"
        let exported = try run(["annotations", "export", path, "--format", "json", "--output", output])
        #expect(exported.status == 3, "\(exported.stderr)")
        #expect(exported.stderr.contains("1 quote(s) left out"), "\(exported.stderr)")
        #expect(try charactersLeft(path) == 40 - Self.first.count)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any])
        let annotations = try #require(((root["publications"] as? [[String: Any]])?.first)?["annotations"] as? [[String: Any]])
        let targets = annotations.compactMap { $0["target"] as? [String: Any] }
        #expect(targets.count == 2)
        let quote = try #require(targets.first?["quote"] as? [String: Any])
        #expect(quote["exact"] as? String == Self.first)
        // Only the quoted words, no context: exactly what was consumed.
        #expect(quote["prefix"] as? String == "" && quote["suffix"] as? String == "")
        #expect(targets.last?["quote"] == nil)
        #expect(targets.last?["quoteWithheld"] as? Bool == true)
        #expect(targets.last?["textRange"] != nil)
        #expect(annotations.last?["note"] as? String == "kept without its quote")
        let file = try String(contentsOfFile: output, encoding: .utf8)
        #expect(!file.contains(Self.second) && !file.contains("quokkas"))

        // The Markdown export says so in the file too; nothing is left to copy now.
        let markdown = try run(["annotations", "export", path, "--format", "markdown"])
        #expect(markdown.status == 3)
        #expect(try charactersLeft(path) == 0)
        #expect(markdown.stdout.contains(Self.first) && markdown.stdout.contains("left out"), "\(markdown.stdout)")
        let dry = try run(["annotations", "export", path, "--format", "markdown"])
        #expect(!dry.stdout.contains(Self.first) && dry.stderr.contains("2 quote(s) left out"))
        #expect(try charactersLeft(path) == 0)
    }

    @Test func listingQuotesConsumesTheCopyAllowanceAsListeningDoes() throws {
        let path = try book(copy: 30)
        #expect(try run(["annotate", path, "--passphrase", "open sesame", "--quote", Self.first]).status == 0)
        #expect(try run(["annotate", path, "--quote", Self.second, "--note", "listed without its quote"]).status == 0)
        #expect(try charactersLeft(path) == 30)

        // The first quote (20 characters) is printed and counted; the second (31) does not fit.
        let listed = try run(["annotations", path])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains(Self.first), "\(listed.stdout)")
        #expect(!listed.stdout.contains(Self.second) && !listed.stdout.contains("quokkas"))
        #expect(listed.stdout.contains("listed without its quote"), "the entry keeps its place: \(listed.stdout)")
        #expect(listed.stderr.contains("copying"), "\(listed.stderr)")
        #expect(try charactersLeft(path) == 30 - Self.first.count)

        // 10 left, neither fits: the JSON keeps both entries, their places and notes, without the words.
        let json = try run(["annotations", path, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let items = try #require(json.json as? [[String: Any]])
        #expect(items.count == 2)
        #expect(items.allSatisfy { $0["quote"] is NSNull && $0["quoteWithheld"] as? Bool == true && $0["textRange"] is [Int] })
        #expect(items.last?["note"] as? String == "listed without its quote")
        #expect(!json.stdout.contains(Self.first) && json.stderr.contains("copying"))
        #expect(try charactersLeft(path) == 30 - Self.first.count)
    }
}

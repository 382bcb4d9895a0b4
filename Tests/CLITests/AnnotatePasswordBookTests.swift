import Foundation
import Testing
import TestSupport

/// Highlights of a password-protected ZIP book: the quote sealed in the library with the
/// remembered passwords' key file, never in clear, and back when the book is listed.
@Suite struct AnnotatePasswordBookTests {
    let lectern = LecternProcess()

    @Test func aZipPasswordBooksQuoteIsNeverInClear() throws {
        let path = Fixtures.temporaryDirectory("annotate-zip") + "/wasteland.epub"
        try FileManager.default.copyItem(atPath: Fixtures.sample("protected-zip/derived-wasteland-pkzip-secret.epub"), toPath: path)
        let refused = try lectern.run(["annotate", path, "--quote", "April is the cruellest month"])
        #expect(refused.status == 2 || refused.status == 3, "\(refused.stderr)")
        let made = try lectern.run(["annotate", path, "--password", "secret", "--quote", "April is the cruellest month",
                                    "--note", "a note of mine"])
        #expect(made.status == 0, "\(made.stderr)")

        let base = lectern.home + "/data/lectern/library.sqlite"
        let bytes = ["", "-wal", "-journal"].reduce(into: Data()) { bytes, suffix in
            bytes += (try? Data(contentsOf: URL(fileURLWithPath: base + suffix))) ?? Data()
        }
        #expect(!bytes.isEmpty)
        for text in ["April is the cruellest month", "cruellest", "breeding"] {
            for encoding in [String.Encoding.utf8, .utf16LittleEndian] {
                #expect(bytes.range(of: try #require(text.data(using: encoding))) == nil, "\(text) in clear")
            }
        }
        let listed = try lectern.run(["annotations", path, "--password", "secret", "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let items = try #require(listed.json as? [[String: Any]])
        #expect(items.first?["quote"] as? String == "April is the cruellest month")
        #expect(items.first?["note"] as? String == "a note of mine")
    }
}

import Foundation
import Testing
import TestSupport

/// `lectern list` marks books whose file is gone; `lectern open --last` continues the book read
/// last (#29 item 20).
@Suite struct LastBookTests {
    let lectern = LecternProcess()

    /// A copy of a sample in a folder of the test's, imported.
    func importedCopy() throws -> String {
        let path = Fixtures.temporaryDirectory("last-book") + "/wasteland.epub"
        try FileManager.default.copyItem(atPath: Fixtures.sample("epub/idpf-wasteland.epub"), toPath: path)
        let imported = try lectern.run(["import", "--no-index", path])
        #expect(imported.status == 0, "\(imported.stderr)")
        return path
    }

    @Test func listMarksAMissingFile() throws {
        let path = try importedCopy()
        let present = try lectern.run(["list"])
        #expect(!present.stdout.contains("[missing]"), "\(present.stdout)")
        try FileManager.default.removeItem(atPath: path)
        let text = try lectern.run(["list"])
        #expect(text.stdout == "The Waste Land — T.S. Eliot [missing] — \(path)\n", "\(text.stdout)")
        let json = try lectern.run(["list", "--json"])
        let entries = try #require(json.json as? [[String: Any]])
        #expect(entries.first?["missing"] as? Bool == true)
    }

    @Test func openLastTakesTheBookOpenedMostRecently() throws {
        let none = try lectern.run(["open", "--last"])
        #expect(none.status == 2)
        #expect(none.stderr.contains("no book has been read yet"), "\(none.stderr)")
        let path = try importedCopy()
        try Command.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE shelf_publications SET opened_at = 1000")
            db.commit()
            """, [lectern.home + "/data/lectern/library.sqlite"])
        // Without its file, what `--last` chose is named in the error (no terminal is needed).
        try FileManager.default.removeItem(atPath: path)
        let last = try lectern.run(["open", "--last"])
        #expect(last.status == 2)
        #expect(last.stderr.contains("\(path): no such file"), "\(last.stderr)")
    }
}

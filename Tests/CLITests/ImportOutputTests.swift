import Foundation
import Testing
import TestSupport

/// What `lectern import` says of each file: added, updated, or already in the library.
@Suite struct ImportOutputTests {
    let lectern = LecternProcess()

    @Test func aKnownBookWhoseShelfEntryChangedIsUpdated() throws {
        let book = Fixtures.sample("epub/idpf-wasteland.epub")
        let first = try lectern.run(["import", "--no-index", book])
        #expect(first.stdout == "added: The Waste Land — \(book)\n", "\(first.stderr)")
        // As an older version might have recorded it.
        try Command.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE shelf_publications SET title = 'idpf-wasteland', author = ''")
            db.commit()
            """, [lectern.home + "/data/lectern/library.sqlite"])
        let again = try lectern.run(["import", "--no-index", book])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout == "updated: The Waste Land — \(book)\n")
        let third = try lectern.run(["import", "--no-index", book])
        #expect(third.stdout == "already in the library: The Waste Land — \(book)\n")
    }
}

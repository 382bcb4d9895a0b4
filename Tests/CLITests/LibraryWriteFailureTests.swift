import Foundation
import Testing
import TestSupport

/// A library database that fails is said as such, not taken for "nothing there".
@Suite struct LibraryWriteFailureTests {
    let lectern = LecternProcess()

    var database: String { lectern.home + "/data/lectern/library.sqlite" }

    /// Runs SQL on the library database with Python's sqlite3 (python3 is a build package).
    func sql(_ statement: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()",
                             database, statement]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func aPasswordThatCannotBeForgottenIsNotSaidToBeAbsent() throws {
        let book = Fixtures.sample("protected-zip/derived-wasteland-pkzip-secret.epub")
        #expect(try lectern.run(["import", book]).status == 0)
        // The passwords table replaced by a view: SQLite refuses the DELETE.
        try sql("""
            CREATE TABLE IF NOT EXISTS shelf_zip_passwords (identity TEXT PRIMARY KEY NOT NULL, sealed TEXT NOT NULL, saved_at REAL NOT NULL);
            DROP TABLE shelf_zip_passwords;
            CREATE VIEW shelf_zip_passwords AS SELECT '' AS identity, '' AS sealed, 0.0 AS saved_at;
            """)
        let result = try lectern.run(["forget-password", book])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("could not be forgotten"), "\(result.stderr)")
        #expect(!result.stderr.contains("no password is remembered"))
    }

    @Test func doctorSaysALibraryItCannotReadIsUnreadable() throws {
        try FileManager.default.createDirectory(atPath: lectern.home + "/data/lectern", withIntermediateDirectories: true)
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: database))
        let result = try lectern.run(["doctor", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(result.json as? [String: [String: String]])
        #expect(report["library"]?["publications"] == nil)
        #expect(report["library"]?["library"]?.hasPrefix("unreadable: library database:") == true, "\(report["library"] ?? [:])")
    }
}

import Bookshelf
import Foundation
import Testing
import TestSupport

/// Remembered passwords and reading statistics written through the library's one writer,
/// with their failures returned.
@Suite struct LibraryOwnTablesTests {
    @Test func passwordsAndStatisticsGoThroughTheLibrary() async throws {
        let folder = Fixtures.temporaryDirectory("library-own-tables")
        let library = try Library(path: folder + "/library.sqlite")
        let sealing = PasswordSealing(keyPath: folder + "/passwords.key")
        #expect(try await library.rememberedPassword(identity: "id:a", sealing: sealing) == nil)
        #expect(try await library.rememberPassword("secret", identity: "id:a", sealing: sealing))
        #expect(try await library.rememberedPassword(identity: "id:a", sealing: sealing) == "secret")
        #expect(try await library.forgetPassword(identity: "id:a"))
        #expect(try await library.forgetPassword(identity: "id:a") == false)

        try library.addReadingSessionNow(identity: "id:a", seconds: 60, pages: 3, characters: 900)
        try library.addReadingSessionNow(identity: "id:a", seconds: 30, pages: 1, characters: 300)
        let statistics = try #require(try await library.readingStatistics()["id:a"])
        #expect(statistics.seconds == 90)
        #expect(statistics.characters == 1200)
    }

    @Test func aPasswordThatCannotBeForgottenIsAnError() async throws {
        let path = Fixtures.temporaryDirectory("library-own-tables-failure") + "/library.sqlite"
        let library = try Library(path: path)
        // The passwords table replaced by a view: SQLite refuses the DELETE.
        try Command.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.executescript("DROP TABLE shelf_zip_passwords; CREATE VIEW shelf_zip_passwords AS SELECT '' AS identity, '' AS sealed, 0.0 AS saved_at;")
            """, [path])
        await #expect(throws: LibraryError.self) { try await library.forgetPassword(identity: "id:a") }
    }
}

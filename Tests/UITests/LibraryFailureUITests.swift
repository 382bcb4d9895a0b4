import Foundation
import Testing
import TestSupport

/// Failures of the library that the person has to hear of: said on the status line, not
/// swallowed.
@Suite(.serialized) struct LibraryFailureUITests {
    /// Runs one SQL statement (with at most one `?` parameter) on the library database of
    /// `home`, from outside lectern: the damage the tests make.
    static func changeLibrary(of home: String, _ sql: String, _ parameter: String? = nil) throws {
        try Command.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute(sys.argv[2], tuple(sys.argv[3:]))
            db.commit()
            """, [home + "/data/lectern/library.sqlite", sql] + (parameter.map { [$0] } ?? []))
    }

    /// A book opened with `lectern open` that the library refuses to add: the reader says its
    /// place will not be kept (positions and bookmarks need the entry).
    @Test func aBookTheLibraryCannotAddSaysItsPlaceWillNotBeKept() throws {
        let home = try UIFixtures.home()
        _ = try LecternProcess(home: home).run(["list"])
        // Every new publication is refused by the database, as a full disk or a locked file would.
        try Self.changeLibrary(of: home, "CREATE TRIGGER refuse_all BEFORE INSERT ON shelf_publications BEGIN SELECT RAISE(ABORT, 'no room left'); END")
        let tmux = try TmuxSession(width: 160, height: 20, arguments: ["open", UIFixtures.sample("idpf-wasteland.epub")], home: home)
        defer { tmux.close() }
        let screen = try tmux.waitForAll("its place will not be kept", "no room left")
        #expect(screen.contains("This book could not be added to the library: library database:"))
    }

    /// A book acquired into the library folder whose file cannot be deleted: removed from the
    /// library, and the shelf says the file stayed, with the reason.
    @Test func removingAnAcquiredBookWhoseFileCannotBeDeletedSaysSo() throws {
        let home = try UIFixtures.home(importing: [UIFixtures.sample("idpf-wasteland.epub")])
        // Its file under a plain file in the library folder: it cannot be deleted (not a
        // directory), whoever runs the test.
        let folder = home + "/data/lectern/publications"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: folder + "/plain", contents: Data("x".utf8)))
        try Self.changeLibrary(of: home, "UPDATE shelf_publications SET path = ?, acquired = 1", folder + "/plain/wasteland.epub")
        let tmux = try TmuxSession(width: 150, height: 20, arguments: [], home: home)
        defer { tmux.close() }
        try tmux.waitFor("The Waste Land")
        try tmux.press("d")
        try tmux.waitFor("and delete its file? y/n")
        try tmux.press("y")
        let screen = try tmux.waitFor("its file could not be deleted")
        #expect(screen.contains("Removed \"The Waste Land\" from the library, but its file could not be deleted: Not a directory"))
    }

    /// A theme that cannot be saved (the configuration file is a folder): the status line says
    /// so instead of leaving the person to find the theme gone next time.
    @Test func aThemeThatCannotBeSavedSaysSo() throws {
        let home = try UIFixtures.home()
        try FileManager.default.createDirectory(atPath: home + "/config/lectern/config.toml", withIntermediateDirectories: true)
        let tmux = try TmuxSession(width: 220, height: 20, arguments: ["open", UIFixtures.sample("idpf-wasteland.epub")], home: home)
        defer { tmux.close() }
        try tmux.waitFor("April is the cruellest month")
        try tmux.press("T")
        let screen = try tmux.waitFor("Could not save the theme")
        #expect(screen.contains("Could not save the theme: cannot write " + home + "/config/lectern/config.toml"))
    }

    /// A library whose entries cannot be read when the book opens: the book opens at its start
    /// and the reader says its place will not be saved (over the one kept).
    @Test func aLibraryThatCannotBeReadAtOpeningSaysTheBookOpensAtTheStart() throws {
        let home = try UIFixtures.home(importing: [UIFixtures.sample("idpf-wasteland.epub")])
        // A column every read of an entry names is gone, as in a damaged database.
        try Self.changeLibrary(of: home, "ALTER TABLE shelf_publications RENAME COLUMN locator TO damaged")
        let tmux = try TmuxSession(width: 220, height: 20, arguments: ["open", UIFixtures.sample("idpf-wasteland.epub")], home: home)
        defer { tmux.close() }
        let screen = try tmux.waitForAll("the book opens at the start and its place will not be saved", "p. 1/")
        #expect(screen.contains("The library could not be read: library database:"))
    }
}

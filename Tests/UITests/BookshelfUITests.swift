import Foundation
import Testing
import TestSupport

/// The bookshelf (`lectern` with no argument) driven in tmux.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct BookshelfUITests {
    @Test func listsTheImportedSamples() throws {
        let home = try UIFixtures.home(importing: [UIFixtures.samples])
        let tmux = try TmuxSession(width: 100, height: 30, arguments: [], home: home)
        defer { tmux.close() }
        // The whole expected screen at once (a capture may hold a half-drawn shelf), with the
        // protection marks of the LCP book and the password-protected ZIP.
        try tmux.waitUntil(timeout: 60, "the shelf with its protection marks") { screen in
            let lines = screen.split(separator: "\n")
            return screen.contains("Moby-Dick") && screen.contains("The Waste Land") && screen.contains("Children's Literature")
                && screen.contains("T.S. Eliot") && screen.contains("publications")
                && lines.contains { $0.contains("The Waste Land") && $0.contains("LCP") }
                && lines.contains { $0.contains("pkzip-secret") && $0.contains("password") }
                // Format names are spelled one way.
                && lines.contains { $0.contains("Children's Literature") && $0.contains("EPUB") }
                && !lines.contains { $0.contains(" epub ") }
        }
    }

    @Test func filtersAsYouTypeAndSorts() throws {
        let home = try UIFixtures.home(importing: [UIFixtures.samples])
        let tmux = try TmuxSession(width: 100, height: 30, arguments: [], home: home)
        defer { tmux.close() }
        try tmux.waitFor("Moby-Dick")
        try tmux.press("/")
        try tmux.type("mob")
        // The whole filtered screen is waited for: a capture taken while the list is redrawn
        // has the new count above rows of the old list.
        var screen = try tmux.waitUntil("the list filtered to “mob”") { screen in
            !screen.contains("Children's Literature") && screen.contains("(1 shown)") && screen.contains("Filter: mob")
                && !screen.contains("The Waste Land") && screen.contains("Moby-Dick")
        }
        #expect(screen.contains("Moby-Dick"))
        try tmux.press("Escape")
        screen = try tmux.waitFor("Children's Literature")
        try tmux.press("s")
        // By author: Boulet (Page Blanche) comes before Charles Madison Curry (the whole sorted
        // screen is waited for: a capture may hold a half-drawn list).
        screen = try tmux.waitUntil("the list sorted by author") { screen in
            guard screen.contains("sort: author"), let boulet = screen.range(of: "Page Blanche"),
                  let curry = screen.range(of: "Children's Literature") else { return false }
            return boulet.lowerBound < curry.lowerBound
        }
        #expect(screen.contains("sort: author"))
    }

    @Test func deleteAsksToConfirmAndKeepsTheFile() throws {
        let directory = Fixtures.temporaryDirectory("lectern-delete")
        let copy = directory + "/wasteland-copy.epub"
        try FileManager.default.copyItem(atPath: UIFixtures.sample("idpf-wasteland.epub"), toPath: copy)
        let home = try UIFixtures.home(importing: [copy, UIFixtures.sample("readium-mobydick.webpub")])
        let tmux = try TmuxSession(width: 90, height: 20, arguments: [], home: home)
        defer { tmux.close() }
        try tmux.waitFor("The Waste Land")
        try tmux.press("j") // Moby-Dick, The Waste Land: select the second.
        try tmux.press("d")
        try tmux.waitFor("from the library (the file stays)? y/n")
        try tmux.press("n")
        try tmux.waitFor("Kept")
        try tmux.press("d")
        try tmux.waitFor("y/n")
        try tmux.press("y")
        try tmux.waitFor("Removed")
        let screen = try tmux.waitUntil("the entry to go, Moby-Dick left") { screen in
            !screen.split(separator: "\n").dropFirst(2).dropLast().contains { $0.contains("The Waste Land") } && screen.contains("Moby-Dick")
        }
        #expect(screen.contains("Moby-Dick"))
        #expect(FileManager.default.fileExists(atPath: copy))
    }

    /// A publication whose file is gone is marked, says what to do when opened, and can be removed.
    @Test func aMissingFileIsMarkedAndCanBeRemoved() throws {
        let directory = Fixtures.temporaryDirectory("lectern-missing")
        let copy = directory + "/wasteland-gone.epub"
        try FileManager.default.copyItem(atPath: UIFixtures.sample("idpf-wasteland.epub"), toPath: copy)
        let home = try UIFixtures.home(importing: [copy, UIFixtures.sample("readium-mobydick.webpub")])
        try FileManager.default.removeItem(atPath: copy)
        let tmux = try TmuxSession(width: 100, height: 20, arguments: [], home: home)
        defer { tmux.close() }
        try tmux.waitUntil("the missing mark") { screen in
            screen.split(separator: "\n").contains { $0.contains("The Waste Land — file missing") }
                && !screen.split(separator: "\n").contains { $0.contains("Moby-Dick") && $0.contains("missing") }
        }
        try tmux.press("j") // Moby-Dick, The Waste Land: the second.
        try tmux.press("Enter")
        try tmux.waitFor("File missing: wasteland-gone.epub — R gives its new place, d removes the entry.")
        try tmux.press("d")
        try tmux.waitFor("y/n")
        try tmux.press("y")
        // The list rows only (the status line says what was removed).
        try tmux.waitUntil("the entry to go") { screen in
            let rows = screen.split(separator: "\n").dropFirst(2).dropLast()
            return !rows.contains { $0.contains("The Waste Land") } && rows.contains { $0.contains("Moby-Dick") }
        }
    }

    /// A publication whose file moved is relinked from the prompt, only to the same book, and
    /// opens again where it was.
    @Test func aMissingFileIsRelinkedToTheSameBookOnly() throws {
        let directory = Fixtures.temporaryDirectory("lectern-relink")
        let original = directory + "/wasteland-before.epub"
        let moved = directory + "/moved/wasteland-after.epub"
        let other = directory + "/other.epub"
        try FileManager.default.copyItem(atPath: UIFixtures.sample("idpf-wasteland.epub"), toPath: original)
        try FileManager.default.copyItem(atPath: UIFixtures.sample("idpf-childrens-literature.epub"), toPath: other)
        let home = try UIFixtures.home(importing: [original])
        try FileManager.default.createDirectory(atPath: directory + "/moved", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: original, toPath: moved)
        let tmux = try TmuxSession(width: 100, height: 20, arguments: [], home: home)
        defer { tmux.close() }
        try tmux.waitFor("The Waste Land — file missing")
        try tmux.press("R")
        try tmux.waitFor("New place of \"The Waste Land\" (tab completes):")
        try tmux.type(other)
        try tmux.press("Enter")
        let refused = try tmux.waitUntil("the refusal, the entry still marked missing") { screen in
            screen.contains("other.epub is not the same book as \"The Waste Land\": nothing changed.")
                && screen.contains("The Waste Land — file missing")
        }
        #expect(refused.contains("The Waste Land — file missing"))
        try tmux.press("R")
        try tmux.waitFor("New place of")
        try tmux.type(moved)
        try tmux.press("Enter")
        try tmux.waitFor("Relinked \"The Waste Land\" to wasteland-after.epub.")
        try tmux.waitForAbsence(of: "file missing")
        try tmux.press("Enter")
        try tmux.waitFor("April is the cruellest month", timeout: 60)
        let list = try LecternProcess(home: home).run(["list"])
        #expect(list.stdout.contains(moved))
    }

    /// A copy of a known book imported from elsewhere keeps the entry where it was and stands
    /// in for it when the entry's own file disappears.
    @Test func importingACopyAddsAnotherPlaceOfTheBook() throws {
        let directory = Fixtures.temporaryDirectory("lectern-copy")
        let first = directory + "/first.epub"
        let copy = directory + "/second.epub"
        try FileManager.default.copyItem(atPath: UIFixtures.sample("idpf-wasteland.epub"), toPath: first)
        try FileManager.default.copyItem(atPath: UIFixtures.sample("idpf-wasteland.epub"), toPath: copy)
        let home = try UIFixtures.home(importing: [first])
        let tmux = try TmuxSession(width: 100, height: 20, arguments: [], home: home)
        defer { tmux.close() }
        try tmux.waitFor("The Waste Land")
        try tmux.press("i")
        try tmux.waitFor("Import (file, folder or .lcpl; tab completes):")
        try tmux.type(copy)
        try tmux.press("Enter")
        try tmux.waitFor("Already in the library (first.epub): this copy of \"The Waste Land\" is kept as another place.")
        #expect(try LecternProcess(home: home).run(["list"]).stdout.contains(first))
        // The entry's file goes: the other place takes over at the next look at the shelf.
        try FileManager.default.removeItem(atPath: first)
        try tmux.press("r")
        try tmux.waitFor("\"The Waste Land\" was missing: now read from second.epub.")
        try tmux.press("Enter")
        try tmux.waitFor("April is the cruellest month", timeout: 60)
        #expect(try LecternProcess(home: home).run(["list"]).stdout.contains(copy))
    }

    @Test func importsFromThePathPromptWithoutAskingForSecrets() throws {
        let home = try UIFixtures.home()
        let tmux = try TmuxSession(width: 100, height: 24, arguments: [], home: home)
        defer { tmux.close() }
        try tmux.waitFor("The library is empty")
        try tmux.press("i")
        try tmux.waitFor("Import (file, folder or .lcpl; tab completes):")
        try tmux.type(UIFixtures.sample("r2streamerjs-wasteland-otf-obf_LCP_dan.epub"))
        try tmux.press("Enter")
        let screen = try tmux.waitFor("Imported 1 publication")
        #expect(!screen.contains("Passphrase"))
        try tmux.waitUntil("the LCP book listed") { $0.split(separator: "\n").contains { $0.contains("The Waste Land") && $0.contains("LCP") } }
    }

    @Test func opensAtOnceWithTenThousandPublications() throws {
        let home = try UIFixtures.home()
        // Creates the schema, then 10,000 rows straight into the table.
        _ = try LecternProcess(home: home).run(["list"])
        let database = home + "/data/lectern/library.sqlite"
        try Command.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            rows = [(f"id{i}", f"/nowhere/book{i}.epub", f"Book {i:05d}", f"book {i:05d}", f"Author {i % 97}", f"author {i % 97}",
                     "EPUB", "none", 0, 1700000000.0 + i) for i in range(10000)]
            db.executemany("INSERT INTO shelf_publications (identity, path, title, sort_title, author, sort_author, format, protection, acquired, added_at) VALUES (?,?,?,?,?,?,?,?,?,?)", rows)
            db.commit()
            """, [database])
        let tmux = try TmuxSession(width: 100, height: 30, arguments: [], home: home)
        defer { tmux.close() }
        try tmux.waitForAll("10000 publications", "Book 00000")
        // The list moves at once: the end of the library.
        try tmux.press("G")
        try tmux.waitFor("Book 09999")
        try tmux.press("/")
        try tmux.type("09998")
        try tmux.waitForAll("1 shown", "Book 09998")
    }

    @Test func unknownTerminalTypeIsAClearError() throws {
        let home = try UIFixtures.home()
        let tmux = try TmuxSession(width: 100, height: 20, arguments: [], home: home, environment: ["TERM": "no-such-terminal-type"])
        defer { tmux.close() }
        try tmux.waitForExit()
        let screen = try tmux.transcript()
        #expect(screen.contains("no-such-terminal-type"))
        #expect(screen.contains("TERM"))
    }

    @Test func importPromptCompletesPathsWithTab() throws {
        let folder = Fixtures.temporaryDirectory("lectern-complete")
        try FileManager.default.createDirectory(atPath: folder + "/books", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: UIFixtures.sample("idpf-wasteland.epub"), toPath: folder + "/books/wasteland-only.epub")
        // Wide enough for the temporary path in the prompt.
        let tmux = try TmuxSession(width: 220, height: 24, arguments: [], home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitFor("The library is empty")
        try tmux.press("i")
        try tmux.type(folder + "/bo")
        try tmux.press("Tab")
        try tmux.waitFor(folder + "/books/")
        try tmux.press("Tab")
        try tmux.waitFor(folder + "/books/wasteland-only.epub")
        try tmux.press("Enter")
        try tmux.waitFor("Imported 1 publication")
        try tmux.waitFor("The Waste Land")
    }

    /// A loan's days left are shown whole at 80 columns (the loan column is as wide as its
    /// longest label) and stay when a narrower window drops the format and the author.
    @Test func theLoanColumnFitsNarrowWindows() throws {
        let home = try UIFixtures.home(importing: [UIFixtures.sample("r2streamerjs-wasteland-otf-obf_LCP_dan.epub"),
                                                   UIFixtures.sample("readium-mobydick.webpub")])
        // A loan that ends in 2099: its label is "NNNNN days left".
        try Command.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            changed = db.execute("UPDATE lcp_licenses SET rights_end = '2099-01-01T00:00:00Z'").rowcount
            db.commit()
            assert changed == 1, changed
            """, [home + "/data/lectern/library.sqlite"])
        let tmux = try TmuxSession(width: 80, height: 20, arguments: [], home: home)
        defer { tmux.close() }
        func loanRow(_ screen: String) -> Substring? {
            screen.split(separator: "\n").first { $0.contains("The Waste Land") && $0.contains("LCP") }
        }
        var screen = try tmux.waitUntil("the loan whole under its column title") { screen in
            loanRow(screen)?.contains(" days left") == true && screen.contains("Loan")
        }
        #expect(screen.contains("Loan"))
        #expect(loanRow(screen)?.contains("T.S. Eliot") == true)
        try tmux.resize(width: 50, height: 20)
        screen = try tmux.waitUntil("the loan whole in 50 columns") { screen in
            guard let row = loanRow(screen) else { return false }
            return row.contains(" days left") && !row.contains("EPUB")
        }
        // The loan is not cut at the window's edge: its row ends with it.
        #expect(loanRow(screen).map { $0.trimmingCharacters(in: .whitespaces).hasSuffix(" days left") } == true, "\(screen)")
    }

    /// The license of the sample names a License Status server; here every HTTPS request goes
    /// through a proxy that is not listening, so that the server cannot be reached on any
    /// machine: the popup says so instead of "no renewal offered", and renew and return are
    /// not attempted.
    @Test func licenseDetailsOfAnLCPPublicationOffline() throws {
        let home = try UIFixtures.home(importing: [UIFixtures.sample("r2streamerjs-wasteland-otf-obf_LCP_dan.epub")])
        let unreachable = ["https_proxy": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9", "no_proxy": "", "NO_PROXY": ""]
        let tmux = try TmuxSession(width: 90, height: 30, arguments: [], home: home, environment: unreachable)
        defer { tmux.close() }
        try tmux.waitFor("The Waste Land")
        try tmux.press("L")
        try tmux.waitForAll("License — The Waste Land", "Copies left", "f327b94f-7e05-406e-8524-84ef729db700", "r renew")
        try tmux.waitForAll("status server cannot be reached", "r renew (server unreachable)")
        #expect(!(try tmux.screen().contains("not offered")))
        try tmux.press("r")
        try tmux.waitFor("Cannot renew now.")
        try tmux.press("R")
        try tmux.waitFor("Cannot return now.")
        try tmux.press("Escape")
        try tmux.waitForAbsence(of: "License —")
    }
}

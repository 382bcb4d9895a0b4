import Foundation
import ProgressSync
import Testing
import TestSupport

/// `lectern sync` between two libraries (two sets of XDG directories) and a "KOReader device"
/// (places put straight into the test server), through the real executable.
@Suite struct SyncCommandTests {
    static let book = Fixtures.repositoryRoot + "/Samples/idpf-wasteland.epub"
    /// A KOReader XPointer (crengine's conventions, written by hand from the file): the third
    /// line of "The Burial of the Dead", "Memory and desire, stirring". The book has one spine
    /// item, so `DocFragment` has no index.
    static let koreaderPointer = "/body/DocFragment/body/section[2]/section[1]/div[1]/div[3]/text().0"

    /// One library: `lectern` with its own XDG directories, standard input given.
    struct Library {
        /// What a run produced.
        struct Result {
            let status: Int32
            let stdout: String
            let stderr: String
            var json: Any? { try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) }
        }

        let home = Fixtures.temporaryDirectory("sync-home")

        @discardableResult
        func run(_ arguments: [String], input: String = "") throws -> Result {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: LecternProcess.executable)
            process.arguments = arguments
            var environment = ProcessInfo.processInfo.environment
            environment["HOME"] = home
            environment["XDG_DATA_HOME"] = home + "/data"
            environment["XDG_CONFIG_HOME"] = home + "/config"
            environment["XDG_CACHE_HOME"] = home + "/cache"
            environment["LECTERN_LCP_CRL_URL"] = "none"
            process.environment = environment
            let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
            process.standardInput = stdin
            process.standardOutput = stdout
            process.standardError = stderr
            try process.run()
            try stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
            try stdin.fileHandleForWriting.close()
            nonisolated(unsafe) var errors = Data()
            let drain = Thread { errors = stderr.fileHandleForReading.readDataToEndOfFile() }
            drain.start()
            let output = stdout.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            while !drain.isFinished { usleep(1000) }
            return Result(status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
                                         stderr: String(decoding: errors, as: UTF8.self))
        }

        func json(_ arguments: [String]) throws -> [String: Any] {
            let result = try run(arguments + ["--json"])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.json as? [String: Any] ?? [:]
        }
    }

    @Test func twoLibrariesAndAKOReaderDeviceShareOnePlace() throws {
        let server = try KosyncTestServer()
        defer { server.stop() }
        let a = Library(), b = Library()
        defer { for home in [a.home, b.home] { try? FileManager.default.removeItem(atPath: home) } }
        // Register on one library (the password piped, not on the command line), log in on
        // the other; a wrong password is refused and nothing is kept.
        let registered = try a.run(["sync", "register", server.baseURL, "--username", "reader", "--device", "laptop"], input: "secret\n")
        #expect(registered.status == 0, "\(registered.stderr)")
        let wrong = try b.run(["sync", "login", server.baseURL, "--username", "reader"], input: "wrong\n")
        #expect(wrong.status == 1 && wrong.stderr.contains("refused the user name or password"))
        #expect(try b.json(["sync", "status"])["username"] is NSNull)
        #expect(try b.run(["sync", "login", server.baseURL, "--username", "reader", "--device", "server"], input: "secret\n").status == 0)
        // The key alone is kept, in the 0600 database; never the password, never in config.
        let key = KosyncClient.key(forPassword: "secret")
        let database = a.home + "/data/lectern/library.sqlite"
        let mode = (try FileManager.default.attributesOfItem(atPath: database)[.posixPermissions] as? Int) ?? 0
        #expect(mode & 0o077 == 0)
        #expect(!(try a.run(["sync", "status"]).stdout.contains(key)))
        for home in [a.home, b.home] {
            let files = FileManager.default.enumerator(atPath: home)?.compactMap { $0 as? String } ?? []
            for file in files {
                if file.contains("library.sqlite") {
                    // The database and its write-ahead log: readable by the owner alone.
                    let mode = (try FileManager.default.attributesOfItem(atPath: home + "/" + file)[.posixPermissions] as? Int) ?? 0
                    #expect(mode & 0o077 == 0, "\(file)")
                    continue
                }
                let text = String(decoding: Fixtures.bytes(home + "/" + file), as: UTF8.self)
                #expect(!text.contains("secret") && !text.contains(key), "\(file)")
            }
        }

        let document = try KOReaderDocumentID.partialMD5(ofFileAt: Self.book)
        // Nothing pushed yet.
        #expect(try a.json(["sync", "pull", Self.book])["reason"] as? String == "none")
        // A KOReader device reads to "Memory and desire": A moves there by its XPointer.
        try server.control(["put": ["user": "reader", "document": document, "progress": Self.koreaderPointer,
                                    "percentage": 0.0312, "device": "kobo", "device_id": "KOBO", "timestamp": Int(Date().timeIntervalSince1970) + 5]])
        let pulled = try a.json(["sync", "pull", Self.book])
        #expect(pulled["moved"] as? Bool == true && pulled["found_by"] as? String == "xpointer")
        #expect(pulled["href"] as? String == "EPUB/wasteland-content.xhtml")
        let pointer = try #require(pulled["xpointer"] as? String)
        #expect(pointer.hasSuffix("/div[3]/text().0"), "\(pointer)")
        #expect((pulled["progression"] as? Double ?? 0) > 0)

        // A pushes the place it keeps: the server has A's XPointer, device and id.
        let pushed = try a.run(["sync", "push", Self.book])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let stored = try #require(try server.place(user: "reader", document: document))
        #expect(stored["device"] as? String == "laptop" && stored["progress"] as? String == pointer)
        #expect(stored["device_id"] as? String == (try a.json(["sync", "status"])["device_id"] as? String))
        // Its own place is not a place to move to.
        #expect(try a.json(["sync", "pull", Self.book])["reason"] as? String == "own")
        // B moves to A's place, the same character.
        let other = try b.json(["sync", "pull", Self.book])
        #expect(other["moved"] as? Bool == true && other["device"] as? String == "laptop")
        #expect(other["xpointer"] as? String == pointer && other["href"] as? String == pulled["href"] as? String)
        // B's library keeps it: the reader opens there.
        let kept = String(decoding: try Command.python(
            "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT locator FROM shelf_publications').fetchone()[0])",
            [b.home + "/data/lectern/library.sqlite"]), as: UTF8.self)
        #expect(kept.contains("wasteland-content.xhtml") && kept.contains("progression"), "\(kept)")

        // An older place than B's last reading is not moved to, unless forced.
        try server.control(["put": ["user": "reader", "document": document, "progress": "/body/DocFragment/body/section[2]",
                                    "percentage": 0.5, "device": "phone", "device_id": "PHONE", "timestamp": 1000]])
        #expect(try b.json(["sync", "pull", Self.book])["reason"] as? String == "older")
        let forced = try b.json(["sync", "pull", Self.book, "--force"])
        #expect(forced["moved"] as? Bool == true && forced["device"] as? String == "phone")
    }

    @Test func aPlacePushedOfflineIsSentLater() throws {
        let server = try KosyncTestServer()
        defer { server.stop() }
        let a = Library()
        defer { try? FileManager.default.removeItem(atPath: a.home) }
        #expect(try a.run(["sync", "register", server.baseURL, "--username", "reader"], input: "secret\n").status == 0)
        let document = try KOReaderDocumentID.partialMD5(ofFileAt: Self.book)
        try server.control(["put": ["user": "reader", "document": document, "progress": "/body/DocFragment[7]/body/p",
                                    "percentage": 0.5, "device": "kobo", "device_id": "KOBO", "timestamp": Int(Date().timeIntervalSince1970) + 5]])
        // A pointer into a chapter the book does not have: found by its percentage, and said so.
        let pulled = try a.json(["sync", "pull", Self.book])
        #expect(pulled["found_by"] as? String == "percentage")
        #expect((pulled["fallback"] as? String)?.contains("does not resolve") == true)

        try server.control(["drop": true])
        let offline = try a.run(["sync", "push", Self.book])
        #expect(offline.status == 1 && offline.stderr.contains("waits"), "\(offline.stderr)")
        #expect((try a.json(["sync", "status"])["queued"] as? [Any])?.count == 1)
        #expect((try server.place(user: "reader", document: document))?["device_id"] as? String == "KOBO")
        try server.control(["drop": false])
        // The next exchange that succeeds sends it.
        #expect(try a.json(["sync", "pull", Self.book])["reason"] as? String == "own")
        #expect((try a.json(["sync", "status"])["queued"] as? [Any])?.isEmpty == true)
        #expect((try server.place(user: "reader", document: document))?["device_id"] as? String != "KOBO")
    }

    @Test func withoutALoginSyncSaysSo() throws {
        let a = Library()
        defer { try? FileManager.default.removeItem(atPath: a.home) }
        let result = try a.run(["sync", "push", Self.book])
        #expect(result.status == 2 && result.stderr.contains("not logged in"))
        let logout = try a.run(["sync", "logout"])
        #expect(logout.status == 0 && logout.stdout.contains("not logged in"))
    }

    @Test func aPasswordOnTheCommandLineIsWarnedAbout() throws {
        let server = try KosyncTestServer()
        defer { server.stop() }
        let a = Library()
        defer { try? FileManager.default.removeItem(atPath: a.home) }
        let result = try a.run(["sync", "register", server.baseURL, "--username", "reader", "--password", "secret"])
        #expect(result.status == 0 && result.stderr.contains("process list"))
    }
}

import Foundation
import Testing
import TestSupport

/// The bookshelf, the first screen of a bare `lectern`, reads the library and draws it: no ZIP,
/// cryptography or format library belongs in that process (#28). Read from the dynamic loader's
/// own account (`LD_DEBUG=files`), written to a file: on the terminal it would cover the screen.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct StartupLibrariesUITests {
    static let notForTheShelf = ["libzip", "libcrypto", "libssl", "libbz2", "libarchive", "libmobi", "libcmark-gfm",
                                 "libdjvulibre", "libpoppler", "libmpv", "libchafa", "libgdk_pixbuf"]

    @Test func theBookshelfLoadsNoZIPCryptoOrFormatLibrary() throws {
        let home = try UIFixtures.home(importing: [UIFixtures.sample("idpf-wasteland.epub")])
        let folder = Fixtures.temporaryDirectory("bookshelf-libraries")
        let tmux = try TmuxSession(width: 100, height: 24, arguments: [], home: home,
                                   environment: ["LD_DEBUG": "files", "LD_DEBUG_OUTPUT": folder + "/ld"])
        defer { tmux.close() }
        try tmux.waitUntilSettled("the shelf") { $0.contains("The Waste Land") }
        // Until it exits: whatever the shelf would load in the background is in the account too.
        try tmux.press("q")
        try tmux.waitForExit()
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("ld.") }
        let log = try files.map { try String(contentsOfFile: folder + "/" + $0, encoding: .utf8) }.joined(separator: "\n")
        let loaded = StartupLibrariesUITests.loadedObjects(log)
        #expect(loaded.contains { $0.contains("libsqlite3") }, "LD_DEBUG wrote no account of the shelf: \(files)")
        for library in Self.notForTheShelf {
            #expect(!loaded.contains { $0.contains(library) }, "\(library) is loaded by the bookshelf: \(loaded)")
        }
    }

    /// The objects named in `LD_DEBUG=files` output ("file=libfoo.so.1 [0];  needed by …").
    static func loadedObjects(_ log: String) -> [String] {
        log.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: "file=") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != " " && $0 != "[" && $0 != ";" })
        }
    }
}

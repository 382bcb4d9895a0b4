import Foundation
import Testing
import TestSupport

/// `lectern sync now` with a protected book (#32): its quotes are its text, so the folder gets
/// the places and notes only, and the library keeps its own sealed quotes.
@Suite struct FolderSyncProtectedTests {
    @Test(arguments: [("protected-zip/derived-wasteland-pkzip-secret.epub", "secret"),
                      ("lcp/r2streamerjs-wasteland-otf-obf_LCP_dan.epub", "dan")])
    func aProtectedBooksQuoteNeverReachesTheFolder(_ sample: String, _ secret: String) throws {
        let folder = Fixtures.temporaryDirectory("folder-sync-protected")
        var devices: [(lectern: LecternProcess, book: String)] = []
        for name in ["laptop", "server"] {
            let book = Fixtures.temporaryDirectory("folder-sync-protected-\(name)") + "/" + (sample.split(separator: "/").last.map(String.init) ?? "")
            try FileManager.default.copyItem(atPath: Fixtures.sample(sample), toPath: book)
            let lectern = LecternProcess()
            let set = try lectern.run(["sync", "folder", folder])
            #expect(set.status == 0, "\(set.stderr)")
            devices.append((lectern, book))
        }
        let (laptop, server) = (devices[0], devices[1])
        let made = try laptop.lectern.run(["annotate", laptop.book, "--passphrase", secret, "--quote", "April is the cruellest month",
                                           "--note", "a note of mine"])
        #expect(made.status == 0, "\(made.stderr)")
        let id = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let synced = try laptop.lectern.run(["sync", "now"])
        #expect(synced.status == 0, "\(synced.stderr)")

        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(names.count == 1, "\(names)")
        let bytes = try names.reduce(into: Data()) { $0 += try Data(contentsOf: URL(fileURLWithPath: folder + "/" + $1)) }
        #expect(bytes.range(of: Data("a note of mine".utf8)) != nil)
        for text in ["April is the cruellest month", "cruellest", "breeding"] {
            #expect(bytes.range(of: Data(text.utf8)) == nil, "\(text) in clear in the folder")
        }

        let received = try server.lectern.run(["sync", "now", server.book, "--passphrase", secret])
        #expect(received.status == 0, "\(received.stderr)")
        let onServer = try server.lectern.run(["annotations", server.book, "--passphrase", secret, "--json"])
        let serverItems = try #require(onServer.json as? [[String: Any]], "\(onServer.stdout)\(onServer.stderr)")
        #expect(serverItems.map { $0["id"] as? String } == [id])
        #expect(serverItems.first?["note"] as? String == "a note of mine")

        // The laptop syncs again, reading the file without the quote: its own quote stays.
        let again = try laptop.lectern.run(["sync", "now"])
        #expect(again.status == 0, "\(again.stderr)")
        let onLaptop = try laptop.lectern.run(["annotations", laptop.book, "--passphrase", secret, "--json"])
        let laptopItems = try #require(onLaptop.json as? [[String: Any]], "\(onLaptop.stdout)\(onLaptop.stderr)")
        #expect(laptopItems.first?["quote"] as? String == "April is the cruellest month")
    }
}

import Foundation
import Testing
import TestSupport

/// Progress sync in the terminal, end to end (#32): a KOReader device's place on the test
/// server is offered when `lectern open` shows the book, `y` goes there, and quitting pushes
/// the place it moved to, as this device.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct ProgressSyncUITests {
    /// KOReader's XPointer (written by hand from the file) of "Sweet Thames, run softly, till I
    /// end my song", in part III; the book has one spine item.
    static let pointer = "/body/DocFragment/body/section[2]/section[3]/div[1]/div[4]/text().0"

    @Test func aKOReaderPlaceIsOfferedTakenAndPushedBack() throws {
        let server = try KosyncTestServer()
        defer { server.stop() }
        let book = UIFixtures.sample("idpf-wasteland.epub")
        let home = try UIFixtures.home(importing: [book])
        let lectern = LecternProcess(home: home)
        let login = try lectern.run(["sync", "register", server.baseURL, "--username", "reader", "--device", "laptop", "--password", "secret"])
        #expect(login.status == 0, "\(login.stderr)")
        let document = String(decoding: try Command.python("""
            import hashlib, sys
            data = open(sys.argv[1], 'rb').read(); md5 = hashlib.md5()
            for offset in [0] + [1024 * 4 ** i for i in range(11)]:
                if offset >= len(data): break
                md5.update(data[offset:offset + 1024])
            print(md5.hexdigest())
            """, [book]), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        try server.control(["put": ["user": "reader", "document": document, "progress": Self.pointer, "percentage": 0.4,
                                    "device": "kobo", "device_id": "KOBO", "timestamp": Int(Date().timeIntervalSince1970) + 5]])

        let tmux = try TmuxSession(width: 100, height: 24, arguments: ["open", book], home: home)
        defer { tmux.close() }
        let asked = try tmux.waitForAll("kobo read to 40%", "jump? y/n", timeout: 60)
        #expect(!asked.contains("Sweet Thames, run softly"))
        try tmux.press("y")
        try tmux.waitFor("Sweet Thames, run softly, till I end my song", timeout: 60)
        try tmux.press("q")
        try tmux.waitForExit(timeout: 30)
        let pushed = try #require(try server.place(user: "reader", document: document))
        #expect(pushed["device"] as? String == "laptop")
        #expect((pushed["progress"] as? String)?.hasPrefix("/body/DocFragment/body/section[2]/section[3]/") == true, "\(pushed)")
    }
}

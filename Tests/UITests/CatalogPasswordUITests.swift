import Foundation
import Testing
import TestSupport

/// `lectern catalog add … --username U` without `--password` asks for the password on the
/// terminal and does not show it as it is typed.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct CatalogPasswordUITests {
    @Test func thePasswordIsAskedWithoutEcho() throws {
        let credentials = "Basic " + Data("card-77:hunter2".utf8).base64EncodedString()
        var route = TestHTTPRoute("/feed.xml", headers: ["Content-Type": "application/atom+xml"],
                                  text: #"<feed xmlns="http://www.w3.org/2005/Atom"><id>x</id><title>Members only</title></feed>"#)
        route.authorization = [credentials]
        route.refusal = (401, ["WWW-Authenticate": "Basic realm=\"members\""], Data())
        let server = try TestHTTPServer(routes: [route])
        let home = try UIFixtures.home()
        let tmux = try TmuxSession(width: 80, height: 12,
                                   arguments: ["catalog", "add", server.url("/feed.xml"), "--name", "club", "--username", "card-77"],
                                   home: home)
        defer { tmux.close() }
        try tmux.waitFor("Password for club:")
        try tmux.type("hunter2")
        try tmux.press("Enter")
        let screen = try tmux.waitFor("saved club")
        #expect(!screen.contains("hunter2"))
        try tmux.waitForExit()
        let browse = try LecternProcess(home: home).run(["catalog", "browse", "club"])
        #expect(browse.status == 0, "\(browse.stderr)")
        #expect(browse.stdout.contains("Members only"))
        #expect(server.requests.last?.headers["authorization"] == credentials)
    }
}

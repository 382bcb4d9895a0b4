import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport

/// The reader's `o` opens the chapter shown in the browser through an in-process loopback
/// server: `$BROWSER` is a script that writes the URL it is given to a file; the test then
/// asks that URL for the page and the chapter, as the browser would.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct OpenInBrowserUITests {
    /// The answer to `url`, redirects followed, and the URL finally answered.
    static func get(_ url: String) async throws -> (status: Int, text: String, url: String) {
        let (data, response) = try await URLSession.shared.data(from: try #require(URL(string: url)))
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self), response.url?.absoluteString ?? url)
    }

    @Test func theKeyOpensTheChapterShownThroughALocalServer() async throws {
        let home = try UIFixtures.home()
        let received = home + "/browser-url.txt"
        let browser = home + "/fake-browser.sh"
        try "#!/bin/sh\nprintf '%s' \"$1\" > '\(received).part' && mv '\(received).part' '\(received)'\n"
            .write(toFile: browser, atomically: true, encoding: .utf8)
        chmod(browser, 0o755)

        let tmux = try TmuxSession(width: 100, height: 24, arguments: ["open", UIFixtures.sample("idpf-wasteland.epub")],
                                   home: home, environment: ["BROWSER": browser])
        defer { tmux.close() }
        try tmux.waitForAll("April is the cruellest month", "p. 1/")
        try tmux.press("o")
        try tmux.waitFor("Opened in fake-browser.sh")
        let url = try String(contentsOfFile: received, encoding: .utf8)
        #expect(url.hasPrefix("http://127.0.0.1:"))
        let parts = url.split(separator: "#", maxSplits: 1).map(String.init)
        try #require(parts.count == 2, "\(url)")
        #expect(parts[1] == "EPUB%2Fwasteland-content.xhtml")

        // The page (the URL is a one-time code that redirects to it), and the chapter it opens
        // (its href is the fragment), from the server.
        let page = try await Self.get(parts[0])
        #expect(page.status == 200 && page.text.contains("<title>The Waste Land</title>"), "\(page.status) \(page.url)")
        let chapter = try await Self.get(page.url + (parts[1].removingPercentEncoding ?? ""))
        #expect(chapter.status == 200)
        #expect(chapter.text.contains("April is the cruellest month"))

        // The URL on the browser's command line (readable by every local user) holds no lasting
        // secret: the reader page's secret is not in it, and replayed, it opens nothing (#27 item 6).
        let secret = try #require(URL(string: page.url)?.pathComponents.dropFirst().first)
        #expect(!url.contains(secret), "\(url) \(page.url)")
        let replayed = try await Self.get(parts[0])
        #expect(replayed.status == 404 && !replayed.text.contains("The Waste Land"), "\(replayed.status) \(replayed.url)")

        // Pressed again, the same server answers (one per publication), with a new code.
        try FileManager.default.removeItem(atPath: received)
        try tmux.press("o")
        try tmux.waitUntil("the URL given again") { _ in FileManager.default.fileExists(atPath: received) }
        let second = try String(contentsOfFile: received, encoding: .utf8)
        let origin = { (text: String) in text.split(separator: "/").prefix(2).joined(separator: "/") }
        #expect(second != url && origin(second) == origin(url))
        #expect(try await Self.get(second).url == page.url)
        try tmux.press("q")
        try tmux.waitForExit()
    }
}

import Foundation
import Testing
import TestSupport

/// At 10×3 the status line read `p. 842/129`: its figures were cut at the window's edge
/// (#29 item 14). Whole figures are dropped instead; the page never exceeds the count.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct TinyStatusLineUITests {
    /// The `page/count` figures of a status line, whatever comes before them.
    static func figures(_ line: Substring) -> (page: Int, count: Int)? {
        guard let slash = line.lastIndex(of: "/") else { return nil }
        let page = Int(String(line[..<slash].reversed().prefix { $0.isNumber }.reversed()))
        let count = Int(line[line.index(after: slash)...].prefix { $0.isNumber })
        guard let page, let count else { return nil }
        return (page, count)
    }

    @Test func aTinyWindowNeverShowsAPageBeyondTheCount() throws {
        let tmux = try TmuxSession(width: 10, height: 3, arguments: ["open", UIFixtures.sample("idpf-wasteland.epub")],
                                   home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitUntil("a status line with page figures") { screen in
            screen.split(separator: "\n").last.flatMap(Self.figures) != nil
        }
        try tmux.press("5", "0", "0", "Space")
        let screen = try tmux.waitUntil("page 501") { screen in
            (screen.split(separator: "\n").last.flatMap(Self.figures)?.page ?? 0) >= 500
        }
        let status = screen.split(separator: "\n").last ?? ""
        let figures = try #require(Self.figures(status), "\(status)")
        #expect(figures.page <= figures.count, "\(status)")
        #expect(!status.hasPrefix("p. "), "\(status)")
    }
}

import Foundation
import Testing
import TestSupport

/// A PDF in the reader: its pages' text (PageTextService), page numbers, go-to-page, and
/// printing the chosen PDF pages.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct PDFUITests {
    static let pdf = Fixtures.repositoryRoot + "/Tests/Fixtures/Samples/pdf/pypdf-pdflatex-4-pages.pdf"

    @Test func pagesAndGoToPage() throws {
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", Self.pdf], home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitUntil("the first page laid out") { $0.contains("Page 1 of 4") && $0.contains("p. 1/") }
        try tmux.press(":")
        try tmux.type("3")
        try tmux.press("Enter")
        try tmux.waitFor("Page 3 of 4")
        try tmux.press("g")
        try tmux.waitUntil("the first page laid out") { $0.contains("Page 1 of 4") && $0.contains("p. 1/") }
        try tmux.press("]")
        try tmux.waitFor("Page 2 of 4")
    }

    @Test func printsTheChosenPDFPagesToAFile() throws {
        let home = try UIFixtures.home()
        let output = home + "/pages.pdf"
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", Self.pdf], home: home,
                                   environment: ["LECTERN_PRINT_COMMAND": "none"])
        defer { tmux.close() }
        try tmux.waitUntil("the first page laid out") { $0.contains("Page 1 of 4") && $0.contains("p. 1/") }
        try tmux.press("p")
        try tmux.waitFor("Print pages 1-4")
        try tmux.type("2-3")
        try tmux.press("Enter")
        try tmux.waitFor("save the 2 pages to file:")
        try tmux.type(output)
        try tmux.press("Enter")
        try tmux.waitFor("Saved 2 pages to")
        let data = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(data.starts(with: Array("%PDF".utf8)))
        let pages = String(decoding: try Command.run(["qpdf", "--show-npages", output]), as: UTF8.self)
        #expect(pages.trimmingCharacters(in: .whitespacesAndNewlines) == "2")
    }

    @Test func sendsThePagesToTheSpooler() throws {
        let home = try UIFixtures.home()
        let spooler = home + "/fake-lp"
        try "#!/bin/sh\ncat > \"$0.out\"\n".write(toFile: spooler, atomically: true, encoding: .utf8)
        chmod(spooler, 0o755)
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", Self.pdf], home: home,
                                   environment: ["LECTERN_PRINT_COMMAND": spooler])
        defer { tmux.close() }
        try tmux.waitUntil("the first page laid out") { $0.contains("Page 1 of 4") && $0.contains("p. 1/") }
        try tmux.press("p")
        try tmux.waitFor("Print pages 1-4")
        try tmux.press("Enter") // the current page
        try tmux.waitFor("Sent 1 page to the printer (fake-lp).")
        let pages = String(decoding: try Command.run(["qpdf", "--show-npages", spooler + ".out"]), as: UTF8.self)
        #expect(pages.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    }
}

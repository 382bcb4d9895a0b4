import Foundation
import Testing
import TestSupport

/// A book made by the test: a first chapter whose page holds two internal links, one web
/// link and three `*`/`†` note references, and two chapters the links lead to.
enum LinksBook {
    static func write(to path: String) throws {
        let opf = """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
              <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
                <dc:identifier id="id">urn:test:links-book</dc:identifier>
                <dc:title>Links Book</dc:title><dc:language>en</dc:language>
                <meta property="dcterms:modified">2026-01-01T00:00:00Z</meta>
              </metadata>
              <manifest>
                <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
                <item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>
                <item id="c2" href="c2.xhtml" media-type="application/xhtml+xml"/>
                <item id="c3" href="c3.xhtml" media-type="application/xhtml+xml"/>
              </manifest>
              <spine><itemref idref="c1"/><itemref idref="c2"/><itemref idref="c3"/></spine>
            </package>
            """
        let container = TestEPUBs.containerXML
        let nav = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Links Book</title></head>
            <body><nav epub:type="toc"><ol><li><a href="c1.xhtml">Chapter One</a></li><li><a href="c2.xhtml">Chapter Two</a></li>
            <li><a href="c3.xhtml">Chapter Three</a></li></ol></nav></body></html>
            """
        let one = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Chapter One</title></head>
            <body><h1>Chapter One</h1>
            <p>Links: <a href="c2.xhtml">Second chapter</a> and <a href="c3.xhtml#far">Far place</a>.</p>
            <p>Outside: <a href="https://example.org/lectern?x=1">Project site</a>.</p>
            <p>Notes here<a epub:type="noteref" href="#n1">*</a> and there<a epub:type="noteref" href="#n2">*</a> and a dagger<a epub:type="noteref" href="#n3">†</a>.</p>
            <aside epub:type="footnote" id="n1"><p>First note text.</p></aside>
            <aside epub:type="footnote" id="n2"><p>Second note text.</p></aside>
            <aside epub:type="footnote" id="n3"><p>Third note text.</p></aside>
            </body></html>
            """
        let two = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml"><head><title>Chapter Two</title></head>
            <body><h1>Chapter Two</h1><p>The second chapter begins here.</p></body></html>
            """
        let filler = (1...60).map { "<p>Filler paragraph number \($0).</p>" }.joined(separator: "\n")
        let three = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml"><head><title>Chapter Three</title></head>
            <body><h1>Chapter Three</h1>\(filler)<p id="far">The far place is here.</p>\(filler)</body></html>
            """
        try ZipBuilder.write([ZipBuilder.Entry("mimetype", "application/epub+zip", compression: .stored),
                              ZipBuilder.Entry("META-INF/container.xml", container),
                              ZipBuilder.Entry("OPS/package.opf", opf),
                              ZipBuilder.Entry("OPS/nav.xhtml", nav),
                              ZipBuilder.Entry("OPS/c1.xhtml", one),
                              ZipBuilder.Entry("OPS/c2.xhtml", two),
                              ZipBuilder.Entry("OPS/c3.xhtml", three)], to: path)
    }

    /// A home, the book in it, and a `bin` folder with a fake `xdg-open` that writes the URL
    /// it is given to `xdg-open-url.txt`.
    static func setUp() throws -> (home: String, book: String, received: String, path: String) {
        let home = try UIFixtures.home()
        let book = home + "/links.epub"
        try write(to: book)
        let bin = home + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let received = home + "/xdg-open-url.txt"
        try "#!/bin/sh\nprintf '%s' \"$1\" > '\(received).part' && mv '\(received).part' '\(received)'\n"
            .write(toFile: bin + "/xdg-open", atomically: true, encoding: .utf8)
        chmod(bin + "/xdg-open", 0o755)
        let path = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return (home, book, received, path)
    }
}

@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct LinksUITests {
    /// `f` labels the page's five links and notes in reading order; a label follows an internal
    /// link; Escape and an unknown letter cancel.
    @Test func hintLabelsFollowInternalLinks() throws {
        let setup = try LinksBook.setUp()
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", setup.book], home: setup.home,
                                   environment: ["PATH": setup.path])
        defer { tmux.close() }
        try tmux.waitForAll("Second chapter", "Project site", "p. 1/")
        try tmux.press("f")
        try tmux.waitForAll("Follow: type a label (3 links, 3 notes)", "aecond chapter", "sar place", "droject site")
        try tmux.press("Escape")
        try tmux.waitForAll("Second chapter", "Far place", "Project site")
        // The second label: the link into the middle of chapter three.
        try tmux.press("f")
        try tmux.waitFor("sar place")
        try tmux.press("s")
        try tmux.waitForAll("The far place is here.", "Chapter Three")
        // Back at the start; a letter that is no label ends hint mode.
        try tmux.press("g")
        try tmux.waitForAll("Chapter One", "Second chapter")
        try tmux.press("f")
        try tmux.waitFor("aecond chapter")
        try tmux.press("x")
        try tmux.waitForAll("No label “x”: hints cancelled.", "Second chapter")
        try tmux.press("f")
        try tmux.waitFor("aecond chapter")
        try tmux.press("a")
        try tmux.waitForAll("The second chapter begins here.", "Chapter Two")
    }

    /// A web link asks first; `y` hands the URL to xdg-open, another key does not.
    @Test func externalLinksAskThenRunXdgOpen() throws {
        let setup = try LinksBook.setUp()
        let tmux = try TmuxSession(width: 100, height: 24, arguments: ["open", setup.book], home: setup.home,
                                   environment: ["PATH": setup.path])
        defer { tmux.close() }
        try tmux.waitForAll("Project site", "p. 1/")
        try tmux.press("f")
        try tmux.waitFor("droject site")
        try tmux.press("d")
        try tmux.waitFor("Open https://example.org/lectern?x=1 with xdg-open? y opens")
        try tmux.press("n")
        try tmux.waitFor("Not opened.")
        #expect(!FileManager.default.fileExists(atPath: setup.received))
        try tmux.press("f")
        try tmux.waitFor("droject site")
        try tmux.press("d")
        try tmux.waitFor("with xdg-open? y opens")
        try tmux.press("y")
        try tmux.waitFor("Opened https://example.org/lectern?x=1 with xdg-open.")
        #expect(try String(contentsOfFile: setup.received, encoding: .utf8) == "https://example.org/lectern?x=1")
        // A new width lays the page out again: the labels, placed on the old layout, go.
        try tmux.press("f")
        try tmux.waitFor("droject site")
        try tmux.resize(width: 90, height: 24)
        try tmux.waitUntil("the labels gone after the resize") { $0.contains("Project site") && !$0.contains("Follow: type a label") }
    }

    /// Markers without numbers are numbered on screen; a note's label opens it in a popup,
    /// which steps to the page's next and previous notes.
    @Test func notesAreNumberedAndTheirPopupSteps() throws {
        let setup = try LinksBook.setUp()
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", setup.book], home: setup.home,
                                   environment: ["PATH": setup.path])
        defer { tmux.close() }
        try tmux.waitForAll("Notes here*¹ and there*² and a dagger†³.", "p. 1/")
        try tmux.press("f")
        try tmux.waitFor("Follow: type a label")
        try tmux.press("g")
        try tmux.waitForAll("Second note text.", "Note 2/3 · n next · p previous")
        try tmux.press("n")
        try tmux.waitForAll("Third note text.", "Note 3/3")
        try tmux.press("n")
        try tmux.waitForAll("This is the last note of the page.", "Third note text.")
        try tmux.press("p")
        try tmux.waitForAll("Second note text.", "Note 2/3")
        try tmux.press("p")
        try tmux.waitForAll("First note text.", "Note 1/3")
        try tmux.press("Escape")
        try tmux.waitForAbsence(of: "Second note text.")
        try tmux.press("f")
        try tmux.waitFor("Follow: type a label")
        try tmux.press("f")
        try tmux.waitForAll("First note text.", "Note 1/3")
    }
}

/// The jump list: every jump remembers the page left; `C-o` and Backspace go back, Tab forward,
/// and the status line says where.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct JumpListUITests {
    @Test func backAndForwardAfterLinksContentsSearchAndPercentages() throws {
        let setup = try LinksBook.setUp()
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", setup.book], home: setup.home,
                                   environment: ["PATH": setup.path])
        defer { tmux.close() }
        try tmux.waitForAll("Second chapter", "p. 1/")
        try tmux.press("BSpace")
        try tmux.waitFor("No earlier place")
        // A link.
        try tmux.press("f", "a")
        try tmux.waitFor("The second chapter begins here.")
        try tmux.press("C-o")
        try tmux.waitForAll("Back to “Chapter One”", "Second chapter")
        try tmux.press("Tab")
        try tmux.waitForAll("Forward to “Chapter Two”", "The second chapter begins here.")
        try tmux.press("BSpace")
        try tmux.waitForAll("Back to “Chapter One”", "Second chapter")
        // The table of contents.
        try tmux.press("t")
        try tmux.waitFor("Contents")
        try tmux.press("j", "j", "Enter")
        try tmux.waitForAll("Filler paragraph number 1.", "Chapter Three")
        try tmux.press("C-o")
        try tmux.waitForAll("Back to “Chapter One”", "Second chapter")
        // A search hit, then a percentage, then back twice.
        try tmux.press("/")
        try tmux.type("far place is")
        try tmux.press("Enter")
        try tmux.waitFor("The far place is here.")
        try tmux.press(":")
        try tmux.type("1")
        try tmux.press("Enter")
        try tmux.waitForAll("Chapter One", "Second chapter")
        try tmux.press("C-o")
        try tmux.waitForAll("Back to “Chapter Three”", "The far place is here.")
        try tmux.press("C-o")
        try tmux.waitForAll("Back to “Chapter One”", "Second chapter", "ahead")
        // Going back and then jumping anew forgets what was ahead.
        try tmux.press("G")
        try tmux.waitFor("Filler paragraph number 60.")
        try tmux.press("Tab")
        try tmux.waitFor("Nothing ahead")
    }
}

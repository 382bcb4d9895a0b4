import Foundation
import Testing
import TestSupport

/// The reader page of a real `lectern serve` in a real browser (Debian's `chromium`, headless,
/// through its DevTools protocol): it paints the chapter, navigates by previous/next, keys and
/// the table of contents, keeps the position in the URL, and gates copying by the LCP rights.
/// Every step waits for a state of the page, never for a time.
@Suite(.serialized, .enabled(if: HeadlessChromium.executable != nil,
                             "chromium is not installed (`make test` installs it: the Makefile's BROWSER_TEST_PACKAGES)"))
struct BrowserReaderTests {
    static let mobyDick = Fixtures.sample("epub/idpf-moby-dick.epub")

    /// The text of the resource shown in the reader's frame (its DOM's, before the style
    /// sheet's `text-transform`), spaces collapsed.
    static let frameText = "((document.getElementById('content').contentDocument.body || {}).textContent || '').replace(/\\s+/g, ' ')"

    /// True once the frame shows `href` (a reading-order href), loaded and gated.
    static func shows(_ href: String, position: String) -> String {
        """
        (() => { const frame = document.getElementById('content');
                 return frame.dataset.state === 'ready' && frame.contentDocument.readyState === 'complete'
                   && frame.contentWindow.location.pathname.endsWith(\(HeadlessChromium.Page.literal("/" + href)))
                   && document.getElementById('position').textContent === \(HeadlessChromium.Page.literal(position)); })()
        """
    }

    @Test func theReaderPaintsTheChapterAndNavigates() throws {
        let server = try ServeProcess([Self.mobyDick], publications: 1, home: LecternProcess())
        defer { server.stop() }
        let manifest = try #require(try server.client.request(server.path() + "manifest.json").json)
        let order = (manifest["readingOrder"] as? [[String: Any]] ?? []).compactMap { $0["href"] as? String }
        let count = order.count
        try #require(count > 10 && order[1] == "OPS/toc-short.xhtml")
        let loomings = try #require(order.firstIndex(of: "OPS/chapter_001.xhtml"))

        let browser = try HeadlessChromium()
        defer { browser.close() }
        let page = try browser.open(server.readerURLs[0])
        try page.waitUntil(Self.shows(order[0], position: "1 / \(count)"), "the first resource shown")
        #expect(try page.string("document.title") == "Moby-Dick")
        #expect(try page.evaluate("document.getElementById('prev').disabled") as? Bool == true)

        // Next, by a mouse click on the button, shows the second resource and its text.
        try page.click("#next")
        try page.waitUntil(Self.shows(order[1], position: "2 / \(count)"), "the second resource after Next")
        #expect(try page.string(Self.frameText).contains("Brief Contents"))
        #expect(try page.string("location.hash") == "#" + order[1].replacingOccurrences(of: "/", with: "%2F"))
        try page.click("#next")
        try page.waitUntil(Self.shows(order[2], position: "3 / \(count)"), "the third resource after Next")
        try page.click("#prev")
        try page.waitUntil(Self.shows(order[1], position: "2 / \(count)"), "the second resource after Previous")
        #expect(try page.evaluate("document.getElementById('prev').disabled") as? Bool == false)

        // The table of contents opens, and one of its entries shows its chapter.
        #expect(try page.evaluate("document.getElementById('toc').hidden") as? Bool == true)
        try page.click("#toc-toggle")
        try page.waitUntil("!document.getElementById('toc').hidden", "the table of contents open")
        let entry = "#toc a[data-href=\"OPS/chapter_001.xhtml\"]"
        try #require(try page.evaluate("!!document.querySelector('\(entry)')") as? Bool == true, "no TOC entry for chapter 1")
        try page.click(entry)
        try page.waitUntil(Self.shows(order[loomings], position: "\(loomings + 1) / \(count)"), "chapter 1 from the table of contents")
        #expect(try page.string(Self.frameText).contains("Call me Ishmael."))
        #expect(try page.evaluate("document.querySelector('\(entry)').getAttribute('aria-current')") as? String == "true")

        // What the browser painted in the frame is the text, not an empty page.
        let image = try PNGImage(try page.screenshot(of: "#content"))
        #expect(image.width > 300 && image.height > 300)
        let inked = image.shareUnlikeBackground()
        #expect(inked > 0.005, "only \(inked) of the frame's pixels differ from its background")

        // The arrow keys turn the page too (the frame has the focus after the click).
        try page.press("ArrowRight", code: "ArrowRight", keyCode: 39)
        try page.waitUntil(Self.shows(order[loomings + 1], position: "\(loomings + 2) / \(count)"), "the next chapter after →")

        // The position is in the URL: opening it again shows that chapter.
        let address = try page.string("location.href")
        #expect(address.hasSuffix("#OPS%2Fchapter_002.xhtml"))
        try page.navigate("about:blank")
        try page.waitUntil("location.href === 'about:blank'", "the reader left")
        try page.navigate(address)
        try page.waitUntil(Self.shows(order[loomings + 1], position: "\(loomings + 2) / \(count)"), "chapter 2 reopened from its URL")
        #expect(try page.string(Self.frameText).contains("Chapter 2. The Carpet-Bag."))

        // The dark theme is a class of the page.
        try page.click("#theme")
        try page.waitUntil("document.documentElement.classList.contains('dark')", "the dark theme")
        #expect(server.stop() == 0)
    }

    /// Selects about `characters` characters of the frame's text from its start, and returns
    /// how many the selection holds (as the page will count them).
    static func select(_ characters: Int) -> String {
        """
        (() => {
          const doc = document.getElementById('content').contentDocument;
          const walker = doc.createTreeWalker(doc.body, NodeFilter.SHOW_TEXT);
          const range = doc.createRange();
          let first = null, total = 0, node;
          while ((node = walker.nextNode())) {
            if (!node.data.trim()) { continue; }
            if (!first) { first = node; range.setStart(node, 0); }
            if (total + node.data.length >= \(characters)) { range.setEnd(node, \(characters) - total); break; }
            total += node.data.length;
          }
          const selection = doc.getSelection();
          selection.removeAllRanges();
          selection.addRange(range);
          document.getElementById('content').contentWindow.focus();
          return String(selection).length;
        })()
        """
    }

    /// The copy events the frame's document received, with whether the page cancelled them
    /// (recorded first, in the capture phase of the frame's window, read after the fact).
    static let recordCopies = """
        (() => { const win = document.getElementById('content').contentWindow;
                 win.copies = [];
                 win.addEventListener('copy', (event) => win.copies.push(event), true);
                 return true; })()
        """
    static let copiesPrevented = "Array.from(document.getElementById('content').contentWindow.copies, (event) => event.defaultPrevented)"

    /// The page coordinates of the centre of the first occurrence of `word` in the frame.
    static func centre(of word: String) -> String {
        """
        (() => {
          const frame = document.getElementById('content'), doc = frame.contentDocument;
          const walker = doc.createTreeWalker(doc.body, NodeFilter.SHOW_TEXT);
          let node;
          while ((node = walker.nextNode())) {
            const at = node.data.indexOf(\(HeadlessChromium.Page.literal(word)));
            if (at < 0) { continue; }
            const range = doc.createRange();
            range.setStart(node, at);
            range.setEnd(node, at + \(word.utf16.count));
            node.parentElement.scrollIntoView({ block: 'center' });
            const r = range.getBoundingClientRect(), f = frame.getBoundingClientRect();
            return [f.left + r.left + r.width / 2, f.top + r.top + r.height / 2];
          }
          return [];
        })()
        """
    }

    static let frameSelection = "String(document.getElementById('content').contentDocument.getSelection())"

    /// Double-clicks `word` in the frame and returns what is then selected.
    static func selectByDoubleClick(_ word: String, in page: HeadlessChromium.Page) throws -> String {
        let point = try page.evaluate(Self.centre(of: word)) as? [Double] ?? []
        try #require(point.count == 2, "\(word) is not in the frame")
        try page.doubleClick(x: point[0], y: point[1])
        // A selection that happens shows at once; one that does not never will: wait for the
        // click to have been handled (the frame's document has the focus), then read.
        try page.waitUntil("document.getElementById('content').contentDocument.hasFocus()", "the frame focused by the click")
        return try page.string(Self.frameSelection)
    }

    @Test func copyIsAllowedOnceAndRefusedOverTheLimitAndPrintConsumesPages() throws {
        let lectern = LecternProcess()
        let server = try ServeProcess([ServeCommandTests.lcpWasteland, "--passphrase", "dan"], publications: 1, home: lectern)
        defer { server.stop() }
        let statusPath = server.path() + "~readium/content-protection"
        func left() throws -> Int? {
            (try server.client.request(statusPath).json?["rights"] as? [String: Any])?["copyCharactersLeft"] as? Int
        }
        #expect(try left() == 2048)

        let browser = try HeadlessChromium()
        defer { browser.close() }
        let page = try browser.open(server.readerURLs[0])
        try page.waitUntil(Self.shows("EPUB/wasteland-content.xhtml", position: "1 / 1"), "the poem shown")
        #expect(try page.string(Self.frameText).contains("April is the cruellest month"))
        #expect(try page.evaluate(Self.recordCopies) as? Bool == true)
        // While copying is allowed, a person selects text as anywhere.
        #expect(try Self.selectByDoubleClick("cruellest", in: page).trimmingCharacters(in: .whitespaces) == "cruellest")

        // 1200 characters fit in the 2048 the license grants: the copy goes through, once.
        let selected = try #require(try page.evaluate(Self.select(1200)) as? Int)
        try #require(selected > 1024 && selected <= 2048, "selected \(selected) characters")
        try page.press("c", code: "KeyC", keyCode: 67, modifiers: 2, commands: ["copy"])
        try page.waitUntil("document.getElementById('message').textContent.startsWith('Copied')", "the copy allowed")
        #expect(try page.evaluate(Self.copiesPrevented) as? [Bool] == [false])
        #expect(try left() == 2048 - selected)

        // The same selection again is more than what is left: the copy is cancelled, nothing consumed.
        try page.press("c", code: "KeyC", keyCode: 67, modifiers: 2, commands: ["copy"])
        try page.waitUntil("document.getElementById('message').textContent.startsWith('Copy refused')", "the copy refused")
        #expect(try page.evaluate(Self.copiesPrevented) as? [Bool] == [false, true])
        #expect(try page.string("document.getElementById('message').textContent").contains("\(2048 - selected) characters left"))
        #expect(try left() == 2048 - selected)

        // Print asks the print route for the frame's page count, which it consumes.
        let printStatus = { () throws -> Int? in
            (try server.client.request(statusPath).json?["rights"] as? [String: Any])?["printPagesLeft"] as? Int
        }
        #expect(try printStatus() == 100)
        try page.click("#print")
        try page.waitUntil("document.getElementById('message').textContent.startsWith('Printing')", "the print allowed")
        let message = try page.string("document.getElementById('message').textContent")
        let pages = try #require(Int(message.dropFirst("Printing ".count).prefix { $0.isNumber }), "\(message)")
        #expect(pages >= 1)
        #expect(try printStatus() == 100 - pages)
        #expect(message.contains("\(100 - pages) pages left to print"))
        #expect(server.stop() == 0)
    }

    @Test func textCannotBeSelectedOnceNothingIsLeftToCopy() throws {
        let lectern = LecternProcess()
        let used = try lectern.run(["consume-rights", ServeCommandTests.lcpWasteland, "--passphrase", "dan",
                                    "--copy", String(repeating: "x", count: 2048)])
        #expect(used.status == 0, "\(used.stderr)")
        let server = try ServeProcess([ServeCommandTests.lcpWasteland, "--passphrase", "dan"], publications: 1, home: lectern)
        defer { server.stop() }
        let browser = try HeadlessChromium()
        defer { browser.close() }
        let page = try browser.open(server.readerURLs[0])
        try page.waitUntil(Self.shows("EPUB/wasteland-content.xhtml", position: "1 / 1"), "the poem shown")
        #expect(try page.string(Self.frameText).contains("April is the cruellest month"))
        #expect(try Self.selectByDoubleClick("cruellest", in: page) == "")
        #expect(try page.string("getComputedStyle(document.getElementById('content').contentDocument.body).userSelect") == "none")
        #expect(server.stop() == 0)
    }
}

import Foundation
import Testing
@testable import Bookshelf
@testable import ReaderSettings
@testable import ReaderUI
import Shared
import Terminal
import TestSupport
import TextLayout
import TerminalCells

/// The reader's and the bookshelf's states without a terminal.
struct ReaderUIStateTests {
    static func document(_ html: String) throws -> TextDocument {
        try ContentDocumentParser.parse(html: Array("<html><body>\(html)</body></html>".utf8), href: "c.xhtml")
    }

    static func layout(_ html: String, width: Int = 30) throws -> LaidOutDocument {
        LayoutEngine.layout(try document(html), options: LayoutOptions(width: width, paragraphIndent: 0))
    }

    // MARK: - Help

    @Test(arguments: [36, 60, 96])
    func helpLinesFitTheirPopupAndLoseNothing(width: Int) throws {
        let help = HelpState(keyMap: KeyMap())
        let lines = help.wrappedLines(width: width)
        #expect(lines.allSatisfy { TextFitting.width($0) <= width }, "\(lines.filter { TextFitting.width($0) > width })")
        // Every word of every description is still there, in order.
        let words = { (text: [String]) in text.joined(separator: " ").split(separator: " ") }
        #expect(words(lines) == words(help.lines))
        // Scrolling reaches the last wrapped line.
        var scrolled = help
        for _ in 0..<(lines.count + 10) { _ = scrolled.scroll(.down, rows: 10, width: width) }
        #expect(scrolled.top == lines.count - 10)
    }

    /// The help shows the keys of the screen it was asked on first: the bookshelf's (with L and
    /// F) on the bookshelf, the reader's in the reader.
    @Test func helpShowsTheCurrentScreensKeysFirst() {
        let shelf = HelpState(keyMap: KeyMap(), context: .shelf).lines
        let reader = HelpState(keyMap: KeyMap(), context: .reader).lines
        #expect(shelf.first == "Bookshelf")
        #expect(reader.first == "Reader")
        #expect(shelf.contains { $0.hasPrefix("  L ") && $0.contains("license") })
        #expect(shelf.contains { $0.hasPrefix("  F ") })
        #expect(Set(shelf) == Set(reader))
    }

    // MARK: - Selection

    @Test func selectionExtendsByWordLineAndParagraph() throws {
        let layout = try Self.layout("<p>The quick brown fox jumps over the lazy dog again and again.</p><p>Second paragraph.</p>")
        var selection = SelectionState(layout: layout, at: 0)
        #expect(selection.text == "T")
        selection.move(.wordForward)
        #expect(selection.text == "The")
        selection.move(.wordForward)
        #expect(selection.text == "The quick")
        // Back to the start of the word the cursor is in.
        selection.move(.wordBackward)
        #expect(selection.text == "The q")
        selection.move(.paragraphForward)
        #expect(selection.text == "The quick brown fox jumps over the lazy dog again and again.")
        selection.move(.paragraphForward)
        // The paragraph separator between them is a line feed; the one at the end is dropped.
        #expect(selection.text.hasSuffix("again.\nSecond paragraph."))
        selection.move(.paragraphBackward)
        #expect(selection.text == "The quick brown fox jumps over the lazy dog again and again.\nS")
    }

    @Test func selectionByLineFollowsTheLayout() throws {
        let layout = try Self.layout("<p>one two three four five six seven eight nine ten eleven twelve</p>", width: 20)
        #expect(layout.lineCount > 2)
        var selection = SelectionState(layout: layout, at: 0)
        selection.move(.lineDown)
        let firstTwoLines = layout.copyText(lines: 0..<2)
        #expect(selection.text.trimmingCharacters(in: .whitespaces) == firstTwoLines.trimmingCharacters(in: .whitespaces))
        selection.move(.lineUp)
        #expect(selection.text.count <= layout.lines[0].offsets.count)
        // Never past the ends.
        for _ in 0..<50 { selection.move(.characterBackward) }
        #expect(selection.range.lowerBound == 0)
        for _ in 0..<500 { selection.move(.characterForward) }
        #expect(selection.range.upperBound == layout.document.length)
    }

    @Test func selectionCountsGraphemeClusters() throws {
        let layout = try Self.layout("<p>e\u{301}té 👨‍👩‍👧 ok</p>")
        var selection = SelectionState(layout: layout, at: 0)
        selection.move(.paragraphForward)
        #expect(selection.text == "e\u{301}té 👨‍👩‍👧 ok")
        #expect(selection.text.count == 8)
    }

    // MARK: - Paging

    @Test func pagingAndChapterEdges() throws {
        let layout = try Self.layout(String(repeating: "<p>A line of text.</p>", count: 30))
        var state = ReaderState(chapterCount: 3, chapter: 1, rows: 10)
        state.show(chapter: 1, layout: layout, anchor: .start)
        #expect(state.pageInChapter.page == 1)
        #expect(state.perform(.pageDown) == .none)
        #expect(state.pageInChapter.page == 2)
        #expect(state.perform(.pageUp) == .none)
        #expect(state.perform(.pageUp) == .load(chapter: 0, anchor: .end))
        #expect(state.perform(.pageDown, count: 100) == .load(chapter: 2, anchor: .start))
        #expect(state.perform(.nextChapter) == .load(chapter: 2, anchor: .start))
    }

    @Test func aLocatorOnABlankFirstLineComesBackToItsPage() throws {
        let layout = try Self.layout("<h1>Title</h1>" + String(repeating: "<p>Words and more words here.</p>", count: 20) + "<h2>Part</h2><p>After.</p>")
        let rows = 5
        // Every page top whose line has no text (a blank line before a heading) maps back to it.
        for top in stride(from: 0, to: layout.lineCount, by: rows) {
            var state = ReaderState(chapterCount: 1, rows: rows)
            state.show(chapter: 0, layout: layout, anchor: .start)
            state.show(chapter: 0, layout: layout, anchor: .locator(layout.locator(forLine: top)))
            #expect(state.visibleLines.lowerBound == top, "page top \(top)")
        }
    }

    // MARK: - Bookshelf

    @Test func shelfFiltersAsYouTypeAndSorts() {
        var shelf = ShelfState()
        shelf.setEntries([
            LibraryEntry(id: 1, identity: "a", path: "/a", title: "The Waste Land", author: "T.S. Eliot"),
            LibraryEntry(id: 2, identity: "b", path: "/b", title: "Moby-Dick", author: "Herman Melville"),
            LibraryEntry(id: 3, identity: "c", path: "/c", title: "Alice", author: "Lewis Carroll"),
        ], loans: [:])
        #expect(shelf.visible.map { shelf.entries[$0].title } == ["Alice", "Moby-Dick", "The Waste Land"])
        _ = shelf.handle(.character("/"))
        for character in "mel" { _ = shelf.handle(.character(character)) }
        #expect(shelf.visible.map { shelf.entries[$0].title } == ["Moby-Dick"])
        _ = shelf.handle(.escape)
        #expect(shelf.visible.count == 3)
        _ = shelf.handle(.character("s"))
        #expect(shelf.sort == .author)
        // By family name, as a library shelves (issue #18).
        #expect(shelf.entries.map(\.author) == ["Lewis Carroll", "T.S. Eliot", "Herman Melville"])
        // Delete asks first.
        _ = shelf.handle(.character("d"))
        if case .confirmingDelete = shelf.mode {} else { Issue.record("no confirmation") }
        if case .none = shelf.handle(.character("n")) {} else { Issue.record("deleted without a yes") }
    }

    @Test func pathCompletion() throws {
        let folder = Fixtures.temporaryDirectory("completion")
        try FileManager.default.createDirectory(atPath: folder + "/library", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: folder + "/library/book-one.epub", contents: Data())
        _ = FileManager.default.createFile(atPath: folder + "/library/book-two.epub", contents: Data())
        #expect(PathCompletion.complete(folder + "/lib").text == folder + "/library/")
        let several = PathCompletion.complete(folder + "/library/b")
        #expect(several.text == folder + "/library/book-")
        #expect(several.candidates == ["book-one.epub", "book-two.epub"])
        #expect(PathCompletion.complete(folder + "/nothing").text == folder + "/nothing")
    }

    // MARK: - Print layout

    @Test func printLayoutHasFixedPages() throws {
        let document = try Self.document(String(repeating: "<p>Some words to fill the printed pages of the book.</p>", count: 200))
        let layout = PrintLayout.layout(document, paragraphIndent: 0)
        let count = PrintLayout.pageCount(layout)
        #expect(count == (layout.lineCount + PrintLayout.lines - 1) / PrintLayout.lines)
        let text = PrintLayout.text(layout, job: PrintJob(first: 2, last: 3))
        let pages = text.split(separator: "\u{0C}", omittingEmptySubsequences: false)
        #expect(pages.count == 2)
        for page in pages {
            let lines = page.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
            #expect(lines.count <= PrintLayout.lines)
            #expect(lines.allSatisfy { CellWidth.of($0) <= PrintLayout.columns })
        }
    }

    // MARK: - Configuration

    @Test func keyBindingsFromConfigReplaceDefaults() throws {
        var warnings: [String] = []
        let map = KeyMap(overrides: ["page_down": ["J", "space"], "no_such_action": ["x"], "select": ["nokey"]], warnings: &warnings)
        #expect(map.action(for: .character("J")) == .pageDown)
        #expect(map.action(for: .pageDown) == nil)
        #expect(map.action(for: .character("v")) == nil)
        #expect(warnings.contains { $0.contains("no_such_action") })
        #expect(warnings.contains { $0.contains("nokey") })
    }

    @Test func everyBuiltInThemeParsesAndHasFallbacks() throws {
        for name in BuiltinThemes.order {
            let theme = try Theme(name: name, toml: try #require(BuiltinThemes.files[name]))
            let full = theme.palette(colorCount: 256), basic = theme.palette(colorCount: 16), none = theme.palette(colorCount: 0)
            for element in ThemeElement.allCases {
                for color in [basic[element].foreground, basic[element].background] {
                    if case .indexed(let index) = color { #expect(index < 16, "\(name) \(element)") }
                }
                #expect(none[element].foreground == .default && none[element].background == .default)
            }
            #expect(none[.status].attributes.contains(.reverse))
            _ = full
        }
        #expect(Set(BuiltinThemes.order).isSuperset(of: ["default", "dark", "light", "sepia", "high-contrast"]))
    }
}

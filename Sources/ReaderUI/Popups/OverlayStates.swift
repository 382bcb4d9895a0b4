import Bookshelf
import Shared
import Terminal
import TextLayout

/// A scrolling block of laid-out text in a popup: a footnote.
public struct NoteState: Sendable {
    public let title: String
    public let layout: LaidOutDocument
    public var top = 0
    /// The note references of the page the note was opened from, and which one this is
    /// (`n`/`p` step through them).
    public var siblings: [PageTarget] = []
    public var index = 0

    public init(title: String, layout: LaidOutDocument) {
        self.title = title
        self.layout = layout
    }

    /// Scrolls; false when the key does not scroll.
    public mutating func scroll(_ key: Key, rows: Int) -> Bool {
        let maximum = max(0, layout.lineCount - rows)
        switch key {
        case .down, .character("j"): top = min(maximum, top + 1)
        case .up, .character("k"): top = max(0, top - 1)
        case .character(" "), .pageDown, .control("d"): top = min(maximum, top + max(1, rows - 1))
        case .pageUp, .character("b"), .control("u"): top = max(0, top - max(1, rows - 1))
        default: return false
        }
        return true
    }
}

/// The help screen: every key, by screen.
public struct HelpState: Sendable {
    public let lines: [String]
    public var top = 0

    /// Where the help was asked for: its own keys come first.
    public enum Context: Sendable { case reader, shelf, catalogs }

    public init(keyMap: KeyMap, context: Context = .reader) {
        var reader = ["Reader"]
        for action in ReaderAction.allCases {
            let keys = keyMap.keys(for: action).map(\.name).joined(separator: " ")
            reader.append("  " + TextFitting.pad(keys.isEmpty ? "(none)" : keys, to: 18) + " " + action.summary)
        }
        reader.append("  " + TextFitting.pad("1-9…", to: 18) + " a count before a movement: 5j, 3 space, 50%")
        let shelf = [
            "Bookshelf",
            "  " + TextFitting.pad("j k ↓ ↑", to: 18) + " move",
            "  " + TextFitting.pad("enter o", to: 18) + " open",
            "  " + TextFitting.pad("C", to: 18) + " continue the book opened last, where it was left",
            "  " + TextFitting.pad("/", to: 18) + " filter as you type (Esc clears)",
            "  " + TextFitting.pad("F", to: 18) + " find passages in the text of every unprotected book; enter opens the book there",
            "  " + TextFitting.pad("s", to: 18) + " sort: title, author (family name), recent",
            "  " + TextFitting.pad("i", to: 18) + " import a file or folder, or acquire a .lcpl (path prompt)",
            "  " + TextFitting.pad("L", to: 18) + " license details of an LCP book: renew or return the loan",
            "  " + TextFitting.pad("R", to: 18) + " relink a book whose file is missing: give its new place (only the same book is accepted)",
            "  " + TextFitting.pad("P", to: 18) + " forget the remembered password of a ZIP-password book (the next open asks)",
            "  " + TextFitting.pad("I", to: 18) + " the book's reading statistics (time read, sessions, pages a session)",
            "  " + TextFitting.pad("c", to: 18) + " catalogs: browse, search and get books from the OPDS catalogs saved with `lectern catalog add`",
            "  " + TextFitting.pad("d", to: 18) + " remove from the library (asks; the file stays, unless it was acquired into the library folder)",
            "  " + TextFitting.pad("r", to: 18) + " reload",
            "  " + TextFitting.pad("v", to: 18) + " covers view: the library as a grid of covers (h j k l move); v again for the list",
            "  " + TextFitting.pad("q", to: 18) + " quit",
        ]
        let catalogs = [
            "Catalogs (c on the bookshelf)",
            "  " + TextFitting.pad("j k ↓ ↑", to: 18) + " move",
            "  " + TextFitting.pad("enter l →", to: 18) + " open the catalog, follow the entry, show the publication, or take the action chosen",
            "  " + TextFitting.pad("backspace esc h ←", to: 18) + " back (esc also cancels a loading feed)",
            "  " + TextFitting.pad("/", to: 18) + " search the catalog",
            "  " + TextFitting.pad("n p", to: 18) + " next and previous page of the feed",
            "  " + TextFitting.pad("q", to: 18) + " back to the bookshelf",
            "  " + TextFitting.pad("", to: 18) + " a publication's actions: download (open access), borrow or buy (LCP), open the sample",
        ]
        var lines: [String] = switch context {
        case .shelf: shelf + [""] + catalogs + [""] + reader
        case .catalogs: catalogs + [""] + shelf + [""] + reader
        case .reader: reader + [""] + shelf + [""] + catalogs
        }
        lines += [
            "",
            "Hint mode (f)",
            "  " + TextFitting.pad("a s d f…", to: 18) + " the label shown on a link or note: follow it (a web or mail link asks: y opens with xdg-open)",
            "  " + TextFitting.pad("esc", to: 18) + " cancel",
            "",
            "Note popup",
            "  " + TextFitting.pad("n p → ←", to: 18) + " next and previous note of the page",
            "  " + TextFitting.pad("j k space b", to: 18) + " scroll",
            "  " + TextFitting.pad("esc q enter", to: 18) + " close",
            "",
            "Selection (v) and cursor (c)",
            "  " + TextFitting.pad("w b j k } { h l", to: 18) + " move the cursor, or the end of the selection",
            "  " + TextFitting.pad("v space", to: 18) + " with a cursor: start the selection there",
            "  " + TextFitting.pad("o", to: 18) + " move the other end instead",
            "  " + TextFitting.pad("y enter", to: 18) + " copy; past the copy allowance, y again copies what fits",
            "  " + TextFitting.pad("esc v", to: 18) + " cancel",
            "",
            "Passphrase dialog",
            "  " + TextFitting.pad("enter", to: 18) + " open with this passphrase",
            "  " + TextFitting.pad("C-r F2", to: 18) + " show or hide what is typed",
            "  " + TextFitting.pad("esc", to: 18) + " cancel (the publication stays locked)",
            "",
        ] + ConfigHelp.lines
        self.lines = lines
    }

    /// The popup's inner width for a window of `columns` columns.
    public static func innerWidth(columns: Int) -> Int { max(1, min(100, columns - 2) - 4) }

    /// The lines fitted to `width` cells: a description too long for the line goes on below,
    /// under the descriptions rather than under the keys, so that nothing is cut off.
    public func wrappedLines(width: Int) -> [String] {
        let indent = 2 + 18 + 1
        return lines.flatMap { line -> [String] in
            guard TextFitting.width(line) > width else { return [line] }
            guard line.hasPrefix("  "), width > indent + 10 else { return TextFitting.wrap(line, width: width) }
            let keys = String(line.prefix(indent))
            let description = String(line.dropFirst(indent))
            let pieces = TextFitting.wrap(description, width: width - indent)
            return pieces.enumerated().map { ($0.offset == 0 ? keys : String(repeating: " ", count: indent)) + $0.element }
        }
    }

    public mutating func scroll(_ key: Key, rows: Int, width: Int) -> Bool {
        let maximum = max(0, wrappedLines(width: width).count - rows)
        switch key {
        case .down, .character("j"): top = min(maximum, top + 1)
        case .up, .character("k"): top = max(0, top - 1)
        case .character(" "), .pageDown, .control("d"): top = min(maximum, top + max(1, rows - 1))
        case .pageUp, .character("b"), .control("u"): top = max(0, top - max(1, rows - 1))
        default: return false
        }
        return true
    }
}

/// A prompt typed in the reader's status line.
public struct PromptState: Sendable {
    public enum Kind: Sendable, Hashable {
        /// `/`: a search query.
        case search
        /// `:`: a command (`50%`, `q`).
        case command
        /// `%`: a percentage of the book.
        case percent
        /// `p`: the pages to print.
        case printRange(pageCount: Int, current: Int)
        /// No print spooler: the file to write the pages to.
        case printFile(PrintJob)
    }

    public let kind: Kind
    public var field = TextField()

    public init(kind: Kind) {
        self.kind = kind
    }

    public var label: String {
        switch kind {
        case .search: "/"
        case .command: ":"
        case .percent: "Go to %: "
        case .printRange(let count, let current):
            "Print pages 1-\(count) (Enter: \(current)): "
        case .printFile(let job):
            "No print spooler (lp): save \(job.pageCount == 1 ? "the page" : "the \(job.pageCount) pages") to file: "
        }
    }
}

/// What a `:` command asks for.
public enum ReaderCommand: Sendable, Hashable {
    case goToPercent(Double)
    case goToChapter(Int)
    case quit
    case help

    /// Parses `50%`, `12` (a chapter), `q`, `help`; nil otherwise.
    public init?(_ text: String) {
        let command = text.trimmed
        if command == "q" || command == "quit" {
            self = .quit
        } else if command == "h" || command == "help" {
            self = .help
        } else if command.hasSuffix("%"), let value = Double(command.dropLast().trimmed), value.isFinite {
            self = .goToPercent(min(max(value, 0), 100))
        } else if let value = Int(command), value > 0 {
            self = .goToChapter(value)
        } else {
            return nil
        }
    }
}

/// The search in progress: the query, the match shown, and the matches of the chapter shown
/// (all highlighted).
public struct SearchState: Sendable {
    /// What was typed (prefixes included).
    public let query: String
    /// The words and how they match.
    let parsed: SearchQuery
    /// The matches in the whole book, once counted (the index is complete), and which of them
    /// is shown, from 1.
    public var total: Int?
    public var ordinal: Int?
    /// Where the matches of the whole book are, once counted: counted once per search, as a
    /// stored index reads the book's text file to count.
    var bookMatches: [(chapter: Int, range: Range<Int>)]?
    /// The match shown: a chapter and its offsets.
    public var current: (chapter: Int, range: Range<Int>)?
    /// The matches of the chapter on screen.
    public var chapterMatches: [Range<Int>] = []
    public var chapterOfMatches = -1

    public init(query: String) {
        self.query = query
        parsed = SearchQuery(query)
    }
}

/// Why a publication cannot be shown, and what the person can do.
public struct RestrictedInfo: Sendable {
    public let title: String
    public let protection: String?
    public let message: String
    public let advice: [String]
    /// Whether Enter retries opening (asking for the passphrase again).
    public let canRetry: Bool
}

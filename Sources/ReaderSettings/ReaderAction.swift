import Terminal

/// What a key does in the reader; the names are those of `[keys]` in `config.toml`.
public enum ReaderAction: String, Sendable, CaseIterable {
    case lineDown = "line_down"
    case lineUp = "line_up"
    case halfPageDown = "half_page_down"
    case halfPageUp = "half_page_up"
    case pageDown = "page_down"
    case pageUp = "page_up"
    case pageRight = "page_right"
    case pageLeft = "page_left"
    case nextChapter = "next_chapter"
    case previousChapter = "previous_chapter"
    case start
    case end
    case goToPercent = "go_to_percent"
    case command
    case tableOfContents = "toc"
    case search
    case searchNext = "search_next"
    case searchPrevious = "search_previous"
    case searchResults = "search_results"
    case addBookmark = "add_bookmark"
    case bookmarks
    case followNote = "follow_note"
    case select
    case print
    case openInBrowser = "open_in_browser"
    case playPause = "play_pause"
    case seekForward = "seek_forward"
    case seekBackward = "seek_backward"
    case seekForwardLong = "seek_forward_long"
    case seekBackwardLong = "seek_backward_long"
    case nextAudioChapter = "next_audio_chapter"
    case previousAudioChapter = "previous_audio_chapter"
    case faster
    case slower
    case readAloud = "read_aloud"
    case leaveStructure = "leave_structure"
    case nextParagraph = "next_paragraph"
    case previousParagraph = "previous_paragraph"
    case hints
    case jumpBack = "jump_back"
    case jumpForward = "jump_forward"
    case placeCursor = "cursor"
    case help
    case nextTheme = "next_theme"
    case narrower
    case wider
    case toggleJustify = "toggle_justify"
    case toggleIndent = "toggle_indent"
    case cycleMargin = "cycle_margin"
    case cycleSpacing = "cycle_spacing"
    case lookUp = "look_up"
    case toggleFit = "toggle_fit"
    case toggleSpread = "toggle_spread"
    case openImage = "open_image"
    case togglePictures = "toggle_pictures"
    case redraw
    case highlight
    case annotations
    case quit

    /// The default keys.
    public var defaultKeys: [String] {
        switch self {
        case .lineDown: ["j", "down"]
        case .lineUp: ["k", "up"]
        case .halfPageDown: ["C-d"]
        case .halfPageUp: ["C-u"]
        case .pageDown: ["space", "pgdn", "C-f"]
        case .pageUp: ["b", "pgup", "C-b"]
        case .pageRight: ["l", "right"]
        case .pageLeft: ["h", "left"]
        case .nextChapter: ["]", "C-n"]
        case .previousChapter: ["[", "C-p"]
        case .start: ["g", "home"]
        case .end: ["G", "end"]
        case .goToPercent: ["%"]
        case .command: [":"]
        case .tableOfContents: ["t"]
        case .search: ["/"]
        case .searchNext: ["n"]
        case .searchPrevious: ["N"]
        case .searchResults: ["S"]
        case .addBookmark: ["m"]
        case .bookmarks: ["'", "B"]
        case .highlight: ["H"]
        case .annotations: ["A"]
        case .hints: ["f"]
        case .followNote: ["enter"]
        case .jumpBack: ["C-o", "backspace"]
        case .jumpForward: ["tab"]
        case .select: ["v"]
        case .placeCursor: ["c"]
        case .print: ["p"]
        case .openInBrowser: ["o"]
        case .playPause: ["a"]
        case .seekForward: ["."]
        case .seekBackward: [","]
        case .seekForwardLong: [">"]
        case .seekBackwardLong: ["<"]
        case .nextAudioChapter: [")"]
        case .previousAudioChapter: ["("]
        case .faster: ["+", "="]
        case .slower: ["-"]
        case .readAloud: ["r"]
        case .leaveStructure: ["x"]
        case .nextParagraph: ["}"]
        case .previousParagraph: ["{"]
        case .help: ["?", "F1"]
        case .nextTheme: ["T"]
        case .narrower: ["w"]
        case .wider: ["W"]
        case .toggleJustify: ["J"]
        case .toggleIndent: ["I"]
        case .cycleMargin: ["M"]
        case .cycleSpacing: ["s"]
        case .lookUp: ["K"]
        case .toggleFit: ["z"]
        case .toggleSpread: ["D"]
        case .openImage: ["i"]
        case .togglePictures: ["P"]
        case .redraw: ["C-l"]
        case .quit: ["q"]
        }
    }

    /// What the help screen says the action does.
    public var summary: String {
        switch self {
        case .lineDown: "one line down (a count moves that many)"
        case .lineUp: "one line up"
        case .halfPageDown: "half a page down"
        case .halfPageUp: "half a page up"
        case .pageDown: "next page (past the last page: next chapter)"
        case .pageUp: "previous page"
        case .pageRight: "page to the right: next page, previous in a right-to-left book"
        case .pageLeft: "page to the left: previous page, next in a right-to-left book"
        case .nextChapter: "next chapter: the next contents entry (else the next file)"
        case .previousChapter: "previous chapter: the start of this contents entry, else the one before"
        case .start: "start of the book"
        case .end: "end of the book"
        case .goToPercent: "go to a percentage of the book: 50% (count first) or % then a number"
        case .command: "command: :50% goes to 50%, :25 to printed page 25 (else chapter 25), :q quits"
        case .tableOfContents: "table of contents (Enter jumps; p pages, L landmarks)"
        case .search: "search the whole book"
        case .searchNext: "next match (across chapters)"
        case .searchPrevious: "previous match"
        case .searchResults: "every match of the search, in a list (/ prefixes: re: regex · w: whole word · c: case · a: accents)"
        case .addBookmark: "bookmark this page"
        case .bookmarks: "bookmarks (Enter jumps, r names, d deletes)"
        case .highlight: "highlight the search match shown, else open the page's highlight (3H: the third); on a selection, H highlights it"
        case .annotations: "the book's highlights and notes: type to filter, Enter goes there, Tab opens one"
        case .hints: "label the links and notes of the page; type a label to follow one (web links ask first)"
        case .followNote: "the first note of the page in a popup (3 enter: the third), else its link"
        case .jumpBack: "back where the last jump left (contents, link, search, %, bookmark, g G)"
        case .jumpForward: "forward again in the jump list (tab is C-i)"
        case .select: "select from the search match or the page's start: w b j k } { h l extend, o other end, y copy"
        case .placeCursor: "place a cursor (w b j k h l), then v selects from there"
        case .print: "print pages of this chapter (or PDF pages), within the publication's print rights"
        case .openInBrowser: "open this chapter in the web browser (figures, SVG, MathML), with the same rights"
        case .playPause: "audiobooks: play or pause (the track shown, from where it was left)"
        case .seekForward: "audiobooks: 15 s forward (reading aloud: the next phrase or sentence)"
        case .seekBackward: "audiobooks: 15 s back (reading aloud: the previous phrase or sentence)"
        case .seekForwardLong: "audiobooks: 1 min forward"
        case .seekBackwardLong: "audiobooks: 1 min back"
        case .nextAudioChapter: "audiobooks: next chapter of the contents (] [ change track)"
        case .previousAudioChapter: "audiobooks: start of the chapter, or the previous one"
        case .faster: "audiobooks: faster, up to 2× (reading aloud: up to 3×)"
        case .slower: "audiobooks: slower, down to 0.75× (reading aloud: down to 0.5×)"
        case .readAloud: "read aloud from this page (from the selection or the search match shown): the narration, else the text spoken; again: pause, esc stops, :sleep 20 stops in 20 min"
        case .leaveStructure: "reading aloud a narration: leave the table, list or figure read, on to what follows it"
        case .nextParagraph: "reading aloud: on to the next paragraph"
        case .previousParagraph: "reading aloud: back to the previous paragraph"
        case .help: "this help"
        case .nextTheme: "next colour theme (saved)"
        case .narrower: "narrower text column (saved as text_width in config.toml)"
        case .wider: "wider text column, up to the window (saved)"
        case .toggleJustify: "justified or ragged text (saved)"
        case .toggleIndent: "indented or flush paragraphs (saved)"
        case .cycleMargin: "margins: 0, 2, 4, 6 or 8 cells on each side (saved)"
        case .cycleSpacing: "blank lines between paragraphs: 0, 1 or 2 (saved)"
        case .lookUp: "look up in a dictionary (sdcv, else dict) the selected word, or the page's first word"
        case .redraw: "redraw the screen"
        case .toggleFit: "pictures (comics, PDF pages): fit the page or the width (then j k pan)"
        case .toggleSpread: "comics: two pages side by side, in reading order (the cover alone)"
        case .openImage: "the first picture on the page alone, as large as the window (esc closes)"
        case .togglePictures: "PDF: the page as a picture or its text"
        case .quit: "close the book (back to the bookshelf)"
        }
    }
}

/// Keys to reader actions, from the defaults and `[keys]` of `config.toml`.
public struct KeyMap: Sendable {
    private var actions: [Key: ReaderAction] = [:]
    private var keys: [ReaderAction: [Key]] = [:]

    /// The default bindings, changed by `overrides` (action name → key names; an action
    /// given there loses its default keys).
    public init(overrides: [String: [String]] = [:], warnings: inout [String]) {
        for action in ReaderAction.allCases {
            var names = action.defaultKeys
            if let custom = overrides[action.rawValue] { names = custom }
            for name in names {
                guard let key = Key(name: name) else {
                    warnings.append("config.toml [keys] \(action.rawValue): unknown key \"\(name)\"")
                    continue
                }
                // A key given explicitly wins over a default binding of another action.
                if let previous = actions[key], previous != action, overrides[action.rawValue] == nil { continue }
                if let previous = actions[key], previous != action { keys[previous]?.removeAll { $0 == key } }
                actions[key] = action
                keys[action, default: []].append(key)
            }
        }
        for name in overrides.keys where ReaderAction(rawValue: name) == nil {
            warnings.append("config.toml [keys]: unknown action \"\(name)\"")
        }
    }

    public init() {
        var ignored: [String] = []
        self.init(warnings: &ignored)
    }

    public func action(for key: Key) -> ReaderAction? { actions[key] }

    /// The keys of `action`, as shown in the help screen.
    public func keys(for action: ReaderAction) -> [Key] { keys[action] ?? [] }
}

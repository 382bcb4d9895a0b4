import Bookshelf
import FoundationEssentials
import Shared
import Terminal

/// The bookshelf's state: the library's publications sorted and filtered, the selection, and
/// the prompt or confirmation in progress. Pure: the controller does what ``Command`` asks.
public struct ShelfState: Sendable {
    public enum Mode: Sendable {
        case browsing
        /// Typing a filter: every key narrows the list at once.
        case filtering
        /// Waiting for y/n before removing the entry from the library.
        case confirmingDelete(LibraryEntry)
        /// Typing a path to import.
        case importing(TextField)
        /// Typing words to find in the text of every book of the library.
        case searchingText(TextField)
        /// Typing the new path of a publication whose file is missing.
        case relinking(LibraryEntry, TextField)
    }

    /// What the controller should do after a key.
    public enum Command: Sendable {
        case none
        case open(LibraryEntry)
        case delete(LibraryEntry)
        case importPath(String)
        /// Point a missing publication at the file at this path, once it is the same book.
        case relink(LibraryEntry, String)
        /// Find passages in the text of the library's books.
        case searchText(String)
        /// Forget the remembered password of a ZIP-password publication.
        case forgetPassword(LibraryEntry)
        /// The license details of an LCP publication.
        case licenseDetails(LibraryEntry)
        /// The Catalogs view.
        case catalogs
        case help
        case reload
        case quit
    }

    public private(set) var entries: [LibraryEntry] = []
    public private(set) var loans: [String: LoanState] = [:]
    /// Reading statistics by content identity (the cover panel shows the selected book's).
    public var statistics: [String: BookReadingStatistics] = [:]
    /// Publications whose file is no longer where the library saw it (moved or deleted).
    public private(set) var missing: Set<Int64> = []
    public private(set) var sort: LibraryStore.Sort = .title
    public private(set) var filter = TextField()
    /// Indices into ``entries`` of what the filter lets through, in sort order.
    public private(set) var visible: [Int] = []
    public var list = ListState(count: 0)
    public private(set) var mode: Mode = .browsing
    /// One line of feedback (imported, deleted, errors).
    public var message: String?
    /// Whether the library has been read (the list says "Loading…" until then).
    public private(set) var loaded = false
    /// What the filter and the titles look up, worked out once per load.
    private var lookup = Lookup()

    private struct Lookup: Sendable, Hashable {
        /// Each entry's words, lower-cased, as the filter searches them.
        var haystacks: [String] = []
        /// Titles (lower-cased) that several publications share: those rows also show their file.
        var duplicateTitles: Set<String> = []
    }

    /// The title as the list shows it: with the file's name when another publication has the
    /// same title (two editions, a copy in another format), so that they can be told apart.
    public func displayTitle(of entry: LibraryEntry) -> String {
        var title = entry.title
        if lookup.duplicateTitles.contains(entry.title.lowercased()) {
            let file = entry.path.split(separator: "/").last.map(String.init) ?? entry.path
            title += " (\(file))"
        }
        if missing.contains(entry.id) { title += " — file missing" }
        return title
    }

    public init(sort: LibraryStore.Sort = .title) {
        self.sort = sort
    }

    /// Replaces the publications (after loading, importing, deleting), keeping the selected
    /// one selected when it is still there.
    public mutating func setEntries(_ entries: [LibraryEntry], loans: [String: LoanState], missing: Set<Int64> = [],
                                    select id: Int64? = nil) {
        let keep = id ?? selectedEntry?.id
        self.entries = Self.sorted(entries, by: sort)
        self.loans = loans
        self.missing = missing
        // The file's name is searched too: the list shows it beside a title other books share.
        lookup.haystacks = self.entries.map { entry in
            let file = entry.path.split(separator: "/").last.map(String.init) ?? entry.path
            // A calibre book's series and tags narrow the list too.
            return ([entry.title, entry.author, entry.format, file, entry.series ?? ""] + entry.tags).joined(separator: " ").lowercased()
        }
        var seen: [String: Int] = [:]
        for entry in self.entries { seen[entry.title.lowercased(), default: 0] += 1 }
        lookup.duplicateTitles = Set(seen.filter { $0.value > 1 }.keys)
        loaded = true
        applyFilter(keeping: keep)
    }

    public var selectedEntry: LibraryEntry? {
        visible.isEmpty ? nil : entries[visible[list.selection]]
    }

    /// The loan state of an entry, when it is an LCP loan.
    public func loan(of entry: LibraryEntry) -> LoanState? {
        entry.licenseID.flatMap { loans[$0] }
    }

    public mutating func handle(_ key: Key) -> Command {
        switch mode {
        case .filtering:
            switch filter.handle(key) {
            case .edited:
                applyFilter(keeping: nil)
            case .submitted:
                mode = .browsing
            case .cancelled:
                filter = TextField()
                mode = .browsing
                applyFilter(keeping: selectedEntry?.id)
            case .ignored:
                if list.handle(key) { return .none }
                if key == .enter, let entry = selectedEntry { return .open(entry) }
            }
            return .none
        case .confirmingDelete(let entry):
            mode = .browsing
            if key == .character("y") || key == .character("Y") { return .delete(entry) }
            message = "Kept \"\(entry.title)\"."
            return .none
        case .importing(var field):
            switch field.handle(key) {
            case .submitted(let path):
                mode = .browsing
                return path.isEmpty ? .none : .importPath(path)
            case .cancelled:
                mode = .browsing
            case .edited:
                message = nil
                mode = .importing(field)
            case .ignored:
                if key == .tab { complete(&field) }
                mode = .importing(field)
            }
            return .none
        case .relinking(let entry, var field):
            switch field.handle(key) {
            case .submitted(let path):
                mode = .browsing
                return path.isEmpty ? .none : .relink(entry, path)
            case .cancelled:
                mode = .browsing
            case .edited:
                message = nil
                mode = .relinking(entry, field)
            case .ignored:
                if key == .tab { complete(&field) }
                mode = .relinking(entry, field)
            }
            return .none
        case .searchingText(var field):
            switch field.handle(key) {
            case .submitted(let text):
                mode = .browsing
                return text.isEmpty ? .none : .searchText(text)
            case .cancelled:
                mode = .browsing
            case .edited, .ignored:
                mode = .searchingText(field)
            }
            return .none
        case .browsing:
            break
        }
        if list.handle(key) { return .none }
        switch key {
        case .enter, .character("o"), .right, .character("l"):
            guard let entry = selectedEntry else { return .none }
            if missing.contains(entry.id) {
                let file = entry.path.split(separator: "/").last.map(String.init) ?? entry.path
                message = "File missing: \(TerminalText.singleLine(file)) — R gives its new place, d removes the entry."
                return .none
            }
            return .open(entry)
        case .character("C"):
            // Continue: the book opened most recently, wherever the selection is.
            guard let last = entries.filter({ $0.openedAt != nil && !missing.contains($0.id) })
                .max(by: { ($0.openedAt ?? .distantPast) < ($1.openedAt ?? .distantPast) }) else {
                message = "No book has been opened yet."
                return .none
            }
            return .open(last)
        case .character("R"):
            guard let entry = selectedEntry else { return .none }
            guard missing.contains(entry.id) else {
                message = "\"\(TerminalText.singleLine(entry.title))\" is where the library saw it: R relinks a missing file."
                return .none
            }
            mode = .relinking(entry, TextField())
            message = nil
        case .character("I"):
            // The reading statistics, in any window (the cover panel needs 120 columns).
            guard let entry = selectedEntry else { return .none }
            message = ReadingStatisticsText.summary(title: entry.title, statistics[entry.identity])
        case .character("/"):
            mode = .filtering
            message = nil
        case .escape:
            if !filter.text.isEmpty {
                filter = TextField()
                applyFilter(keeping: selectedEntry?.id)
            }
        case .character("F"):
            mode = .searchingText(TextField())
            message = nil
        case .character("s"):
            setSort(sort.next)
            message = "Sorted by \(sort.rawValue)."
        case .character("d"), .delete:
            if let entry = selectedEntry { mode = .confirmingDelete(entry) }
        case .character("i"), .character("a"):
            mode = .importing(TextField())
            message = nil
        case .character("r"), .control("l"):
            return .reload
        case .character("L"):
            if let entry = selectedEntry { return .licenseDetails(entry) }
        case .character("P"):
            guard let entry = selectedEntry else { return .none }
            guard entry.protection == .password else {
                message = "\"\(TerminalText.singleLine(entry.title))\" has no password to forget."
                return .none
            }
            return .forgetPassword(entry)
        case .character("c"):
            return .catalogs
        case .character("?"), .function(1):
            return .help
        case .character("q"):
            return .quit
        default:
            break
        }
        return .none
    }

    /// Completes the path being typed; the candidates, when several, on the message line.
    private mutating func complete(_ field: inout TextField) {
        let (text, candidates) = PathCompletion.complete(field.string)
        field.set(text)
        let shown = candidates.prefix(12).map(TerminalText.singleLine)
        message = shown.isEmpty ? nil : shown.joined(separator: "  ") + (candidates.count > 12 ? "  …" : "")
    }

    public mutating func setSort(_ sort: LibraryStore.Sort) {
        let keep = selectedEntry?.id
        self.sort = sort
        setEntries(entries, loans: loans, missing: missing, select: keep)
    }

    mutating func applyFilter(keeping id: Int64?) {
        let words = filter.string.lowercased().split(separator: " ")
        if words.isEmpty {
            visible = Array(entries.indices)
        } else {
            visible = entries.indices.filter { index in words.allSatisfy { lookup.haystacks[index].contains($0) } }
        }
        let selection = id.flatMap { id in visible.firstIndex { entries[$0].id == id } } ?? 0
        list.reset(count: visible.count, selection: selection)
    }

    static func sorted(_ entries: [LibraryEntry], by sort: LibraryStore.Sort) -> [LibraryEntry] {
        switch sort {
        case .title:
            let keys = entries.map { (LibraryStore.sortKey($0.title), $0.authorSortKey) }
            return entries.indices.sorted { keys[$0] < keys[$1] }.map { entries[$0] }
        case .author:
            let keys = entries.map { ($0.authorSortKey, LibraryStore.sortKey($0.title)) }
            return entries.indices.sorted { keys[$0] < keys[$1] }.map { entries[$0] }
        case .recent:
            return entries.sorted { ($0.openedAt ?? .distantPast, $0.addedAt) > ($1.openedAt ?? .distantPast, $1.addedAt) }
        case .series:
            let keys = entries.map { ($0.series == nil ? 1 : 0, $0.series?.lowercased() ?? "", $0.seriesIndex ?? 0,
                                      LibraryStore.sortKey($0.title), $0.authorSortKey) }
            return entries.indices.sorted { keys[$0] < keys[$1] }.map { entries[$0] }
        }
    }
}

import Bookshelf
import FoundationEssentials
import Shared
import Terminal
#if canImport(Glibc)
import Glibc
#endif

extension ReaderApp {
    /// Shows the bookshelf, reading the library in the background.
    func showShelf() {
        if bookshelf == nil {
            bookshelf = ShelfScreen(keyMap: config.keyMap, covers: shelfCoverDisplay)
            fitPageToWindow()
        }
        page = .shelf
        reloadShelf()
    }

    /// The bookshelf's state (its screen's; nothing is kept while there is no bookshelf).
    var shelf: ShelfState {
        get { bookshelf?.state ?? ShelfState() }
        set { bookshelf?.state = newValue }
    }

    func reloadShelf(select id: Int64? = nil) {
        guard let library = dependencies.library else {
            shelf.setEntries([], loans: [:])
            shelf.message = "The library database cannot be opened: nothing is remembered."
            return
        }
        let loanStates = dependencies.loanStates
        Task { @MainActor in
            // The shelf's reading and relinking is one job of the library's serial writer.
            let result: Result<([LibraryEntry], Bool, Set<Int64>, [LibraryEntry]), LibraryError>
            do throws(LibraryError) { result = .success(try await library.perform { store throws(LibraryError) -> ([LibraryEntry], Bool, Set<Int64>, [LibraryEntry]) in
                var entries = try store.entries(sort: .title)
                // The license repository is opened only when the shelf holds a loan.
                let hasLoans = entries.contains { $0.licenseID != nil }
                var missing = Set<Int64>()
                var relinked: [LibraryEntry] = []
                let locations = LibraryLocations(store: store)
                var otherPaths: [Int64: [String]]?
                for index in entries.indices where access(entries[index].path, F_OK) != 0 {
                    // A copy imported from elsewhere takes the place of a file that disappeared.
                    if otherPaths == nil { otherPaths = (try? locations.allOtherPaths()) ?? [:] }
                    if let found = otherPaths?[entries[index].id]?.first(where: { access($0, F_OK) == 0 }),
                       let entry = try? locations.relink(publicationID: entries[index].id, to: found) {
                        entries[index] = entry
                        relinked.append(entry)
                    } else {
                        missing.insert(entries[index].id)
                    }
                }
                return (entries, hasLoans, missing, relinked)
            }) } catch { result = .failure(error) }
            let entries: [LibraryEntry], hasLoans: Bool, missing: Set<Int64>, relinked: [LibraryEntry]
            switch result {
            case .success(let read): (entries, hasLoans, missing, relinked) = read
            case .failure(let error):
                Self.log.warning("reading the library failed: \(error.userMessage)")
                shelf.message = "The library database cannot be read: \(error.message)"
                render()
                return
            }
            let loans = hasLoans ? await Blocking.run { loanStates?(Date()) ?? [:] } : [:]
            shelf.setEntries(entries, loans: loans, missing: missing, select: id)
            shelf.statistics = (try? await library.readingStatistics()) ?? [:]
            if let first = relinked.first {
                shelf.message = "\"\(TerminalText.singleLine(first.title))\" was missing: now read from \(TerminalText.singleLine(first.path.split(separator: "/").last.map(String.init) ?? first.path))"
                    + (relinked.count > 1 ? " (and \(relinked.count - 1) more relinked)." : ".")
            }
            render()
        }
    }

    /// Does what the bookshelf's screen asked (``ShelfScreen``; opening, help and quitting
    /// come as their own effects).
    func perform(_ command: ShelfState.Command) {
        switch command {
        case .none, .help, .quit, .open:
            break
        case .delete(let entry):
            delete(entry)
        case .importPath(let path):
            if path.lowercased().hasSuffix(".lcpl") {
                let expanded = path.hasPrefix("~/") ? (ProcessInfo.processInfo.environment["HOME"] ?? "") + path.dropFirst() : path
                acquire(license: LibraryImporter.absolutePath(expanded))
            } else {
                importPath(path)
            }
        case .relink(let entry, let path):
            relink(entry, to: path)
        case .searchText(let text):
            searchLibrary(text)
        case .licenseDetails(let entry):
            showLicense(entry)
        case .forgetPassword(let entry):
            forgetPassword(entry)
        case .catalogs:
            showCatalogs()
        case .reload:
            reloadShelf()
        }
    }

    func importPath(_ path: String) {
        guard let library = dependencies.library else { return }
        let expanded = path.hasPrefix("~/") ? (ProcessInfo.processInfo.environment["HOME"] ?? "") + path.dropFirst() : path
        shelf.message = "Importing \(path)…"
        let importer = LibraryImporter(library: library, open: dependencies.open)
        Task { @MainActor in
            let outcomes = await importer.importPaths([expanded])
            let added = outcomes.compactMap(\.entry)
            let failed = outcomes.filter { $0.entry == nil }
            var text = "Imported \(added.count) publication\(added.count == 1 ? "" : "s")"
            if added.count == 1, let outcome = outcomes.first(where: { $0.entry != nil }), let copy = outcome.knownCopy {
                text = Self.knownCopyMessage(copy, title: outcome.entry?.title ?? "")
            }
            if let first = failed.first {
                text += "; \(failed.count) failed (\(TerminalText.singleLine(first.path)): \(TerminalText.singleLine(first.error ?? "?")))"
            }
            shelf.message = text + "."
            reloadShelf(select: added.first?.id)
            indexLibraryInBackground()
        }
    }

    /// What importing a copy of a book already in the library did.
    static func knownCopyMessage(_ copy: LibraryImporter.KnownCopy, title: String) -> String {
        let title = TerminalText.singleLine(title)
        // File names: whole paths would not fit on the status line.
        func fileName(_ path: String) -> String { TerminalText.singleLine(path.split(separator: "/").last.map(String.init) ?? path) }
        switch copy {
        case .anotherLocation(let entryPath):
            return "Already in the library (\(fileName(entryPath))): this copy of \"\(title)\" is kept as another place"
        case .relinked(let from):
            return "\"\(title)\" was missing (\(fileName(from))): relinked to this copy"
        }
    }

    /// Points a missing publication at the file the person named, once it is the same book.
    func relink(_ entry: LibraryEntry, to path: String) {
        guard let library = dependencies.library else { return }
        let expanded = path.hasPrefix("~/") ? (ProcessInfo.processInfo.environment["HOME"] ?? "") + path.dropFirst() : path
        shelf.message = "Checking \(TerminalText.singleLine(expanded))…"
        let importer = LibraryImporter(library: library, open: dependencies.open)
        Task { @MainActor in
            switch await importer.relink(entry, to: expanded) {
            case .success(let relinked):
                let file = relinked.path.split(separator: "/").last.map(String.init) ?? relinked.path
                shelf.message = "Relinked \"\(TerminalText.singleLine(relinked.title))\" to \(TerminalText.singleLine(file))."
                reloadShelf(select: relinked.id)
            case .failure(let failure):
                shelf.message = failure.userMessage
                render()
            }
        }
    }

    func delete(_ entry: LibraryEntry) {
        guard let library = dependencies.library else { return }
        Task { @MainActor in
            let removed: LibraryEntry?
            do throws(LibraryError) { removed = try await library.delete(id: entry.id) } catch {
                shelf.message = "Could not remove \"\(entry.title)\": \(error.userMessage)"
                reloadShelf()
                return
            }
            var fileFailure: String?
            if removed != nil, LibraryStore.ownsFile(of: entry) {
                fileFailure = await Blocking.run { () -> String? in
                    // A file already gone is as good as deleted.
                    if unlink(entry.path) == 0 || errno == ENOENT { return nil }
                    if errno == EISDIR, (try? FileManager.default.removeItem(atPath: entry.path)) != nil { return nil }
                    return String(cString: strerror(errno))
                }
            }
            let title = TerminalText.singleLine(entry.title)
            if let fileFailure {
                Self.log.warning("deleting \(entry.path) failed: \(fileFailure)")
                shelf.message = "Removed \"\(title)\" from the library, but its file could not be deleted: \(fileFailure)"
            } else {
                shelf.message = removed != nil ? "Removed \"\(title)\" from the library." : "Could not remove \"\(title)\"."
            }
            reloadShelf()
        }
    }

    /// Back to the bookshelf (or out of the program for `lectern open`).
    func backFromReader() {
        overlays.removeAll()
        if let book = currentBook {
            closeReader(book, thenShelf: !quitsWithReader)
        }
        if quitsWithReader {
            quit()
        } else {
            showShelf()
        }
    }
}

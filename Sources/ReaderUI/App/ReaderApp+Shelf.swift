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
        page = .shelf
        reloadShelf()
    }

    func reloadShelf(select id: Int64? = nil) {
        guard let store = dependencies.store else {
            shelf.setEntries([], loans: [:])
            shelf.message = "The library database cannot be opened: nothing is remembered."
            return
        }
        let loanStates = dependencies.loanStates
        Task { @MainActor in
            let result = await Blocking.run { () -> ([LibraryEntry], [String: LoanState], Set<Int64>)? in
                guard let entries = try? store.entries(sort: .title) else { return nil }
                // The license repository is opened only when the shelf holds a loan.
                let hasLoans = entries.contains { $0.licenseID != nil }
                let missing = Set(entries.filter { access($0.path, F_OK) != 0 }.map(\.id))
                return (entries, hasLoans ? loanStates?(Date()) ?? [:] : [:], missing)
            }
            guard let (entries, loans, missing) = result else {
                shelf.message = "The library database cannot be read."
                render()
                return
            }
            shelf.setEntries(entries, loans: loans, missing: missing, select: id)
            render()
        }
    }

    func handleShelf(_ key: Key) {
        if key == .control("c") { quit(); return }
        if handleShelfCoverKey(key) { return }
        switch shelf.handle(key) {
        case .none:
            break
        case .open(let entry):
            openPublication(path: entry.path, entry: entry)
        case .delete(let entry):
            delete(entry)
        case .importPath(let path):
            if path.lowercased().hasSuffix(".lcpl") {
                let expanded = path.hasPrefix("~/") ? (ProcessInfo.processInfo.environment["HOME"] ?? "") + path.dropFirst() : path
                acquire(license: LibraryImporter.absolutePath(expanded))
            } else {
                importPath(path)
            }
        case .searchText(let text):
            searchLibrary(text)
        case .licenseDetails(let entry):
            showLicense(entry)
        case .catalogs:
            showCatalogs()
        case .help:
            overlays.append(.help(HelpState(keyMap: config.keyMap, context: .shelf)))
        case .reload:
            reloadShelf()
        case .quit:
            quit()
        }
    }

    func importPath(_ path: String) {
        guard let store = dependencies.store else { return }
        let expanded = path.hasPrefix("~/") ? (ProcessInfo.processInfo.environment["HOME"] ?? "") + path.dropFirst() : path
        shelf.message = "Importing \(path)…"
        let importer = LibraryImporter(store: store, open: dependencies.open)
        Task { @MainActor in
            let outcomes = await importer.importPaths([expanded])
            let added = outcomes.compactMap(\.entry)
            let failed = outcomes.filter { $0.entry == nil }
            var text = "Imported \(added.count) publication\(added.count == 1 ? "" : "s")"
            if let first = failed.first { text += "; \(failed.count) failed (\(first.path): \(first.error ?? "?"))" }
            shelf.message = text + "."
            reloadShelf(select: added.first?.id)
            indexLibraryInBackground()
        }
    }

    func delete(_ entry: LibraryEntry) {
        guard let store = dependencies.store else { return }
        Task { @MainActor in
            let removed = await Blocking.run { () -> Bool in
                guard (try? store.delete(id: entry.id)) != nil else { return false }
                if LibraryStore.ownsFile(of: entry) { try? FileManager.default.removeItem(atPath: entry.path) }
                return true
            }
            shelf.message = removed ? "Removed \"\(entry.title)\" from the library." : "Could not remove \"\(entry.title)\"."
            reloadShelf()
        }
    }

    /// Back to the bookshelf (or out of the program for `lectern open`).
    func backFromReader() {
        overlays.removeAll()
        if case .reader(let session) = page {
            closeReader(session, thenShelf: !quitsWithReader)
        }
        if quitsWithReader {
            quit()
        } else {
            showShelf()
        }
    }
}

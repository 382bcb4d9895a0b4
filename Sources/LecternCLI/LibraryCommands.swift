import ArgumentParser
import Bookshelf
import FoundationEssentials
import LibrarySearch
import ReaderUI
import Shared
#if canImport(Glibc)
import Glibc
#endif

/// `lectern open PATH`: reads a publication in the terminal (it is added to the library, so
/// that its position and bookmarks are kept).
struct OpenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Read a publication in the terminal.",
        discussion: "Press ? in the reader for the keys. A license (.lcpl) is acquired first: its publication is downloaded into the library (once) and opened. Exit status: 0 closed normally, 1 a license's publication could not be acquired, 2 the file is missing or unreadable, or no usable terminal."
    )

    @Argument(help: "The publication file.", completion: .file())
    var path: String?

    @Flag(help: "Continue the book read last (the library's most recently opened).")
    var last = false

    mutating func validate() throws {
        if path == nil, !last { throw ValidationError("Give a publication file, or --last to continue the book read last.") }
        if path != nil, last { throw ValidationError("Give a publication file or --last, not both.") }
    }

    func run() async throws {
        let path = try path ?? Self.lastRead()
        // A file that is not there or cannot be read is said on one line, before any screen.
        if !path.contains("://") {
            let problem: String?
            switch FileKind.lookUp(path) {
            case .failure(let error): problem = error.isMissing ? "no such file" : error.description
            case .success(.file): problem = access(path, R_OK) == 0 ? nil : FileAccessError(code: errno).description
            case .success: problem = nil
            }
            if let problem {
                Output.error("\(path): \(problem)")
                throw ExitStatus.cannotOpen
            }
        }
        var readerPath = path
        if path.lowercased().hasSuffix(".lcpl"), !path.contains("://") {
            switch await LicenseOpening.publication(forLicense: path) {
            case .success(let acquired): readerPath = acquired
            case .failure(let failure):
                Output.error(failure.message)
                throw ExitStatus.someFailed
            }
        }
        // The book is read while the library and the terminal are set up (without a terminal
        // the reader does not start: nothing is read early then).
        let early = isatty(0) == 1 && isatty(1) == 1 ? EarlyOpening(path: LibraryImporter.absolutePath(readerPath)) : nil
        var dependencies = UIComposition.dependencies()
        if let early { dependencies.open = early.opening }
        let status = await ReaderApp(dependencies: dependencies).runReader(path: readerPath)
        await early?.finish()
        if status != 0 { throw ExitCode(status) }
    }

    /// The path of the book opened most recently, for `--last`.
    static func lastRead() throws -> String {
        let (store, problem) = UIComposition.store()
        guard let store else {
            Output.error(problem ?? "the library cannot be opened")
            throw ExitStatus.cannotOpen
        }
        guard let entry = try store.entries(sort: .recent).first(where: { $0.openedAt != nil }) else {
            Output.error("no book has been read yet: lectern open FILE, or lectern for the bookshelf")
            throw ExitStatus.cannotOpen
        }
        return entry.path
    }
}

/// `lectern import PATH…`: adds publications to the library without prompting for any
/// password or passphrase (protected ones are listed locked until opened).
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add publication files, or the publications in folders, to the library.",
        discussion: "Never prompts: protected publications are added with what can be read without their secret (an unlocked one keeps the title read when it was unlocked). Each file is said to be added, updated (a book already there whose title, author or format changed) or already in the library. Exit status: 0 all added, 1 some failed."
    )

    @Argument(help: "Publication files or folders.", completion: .file())
    var paths: [String] = []

    @Option(help: ArgumentHelp("A calibre library folder: its books are added where they are, with calibre's titles and authors (its metadata.db is only read).",
                               valueName: "folder"), completion: .directory)
    var calibre: String?

    @Flag(help: "Do not index the text of the added publications for `lectern search` (`lectern index` does it later).")
    var noIndex = false

    func run() async throws {
        let (store, problem) = UIComposition.store()
        guard let store else {
            Output.error(problem ?? "the library cannot be opened")
            throw ExitStatus.cannotOpen
        }
        if let calibre {
            return try await CalibreImportCommand.run(folder: calibre, store: store, index: !noIndex)
        }
        guard !paths.isEmpty else {
            Output.error("name publication files or folders to import, or a calibre library with --calibre")
            throw ExitStatus.someFailed
        }
        let outcomes = await LibraryImporter(store: store, open: UIComposition.open).importPaths(paths)
        var failed = 0
        for outcome in outcomes {
            if let entry = outcome.entry {
                let mark = entry.protection == .none ? "" : " [\(entry.protection.label)]"
                switch outcome.knownCopy {
                case nil where outcome.previous == nil:
                    Output.line("added: \(entry.title)\(mark) — \(outcome.path)")
                case nil:
                    // A re-import (`make run` imports Samples each time): nothing was added.
                    Output.line("\(outcome.updated ? "updated" : "already in the library"): \(entry.title)\(mark) — \(outcome.path)")
                case .anotherLocation(let entryPath)?:
                    Output.line("already in the library: \(entry.title)\(mark) — \(entryPath); \(outcome.path) recorded as another place of it")
                case .relinked(let from)?:
                    Output.line("relinked: \(entry.title)\(mark) — \(outcome.path) (its file was missing from \(from))")
                }
            } else {
                failed += 1
                Output.error("\(outcome.path): \(outcome.error ?? "not added")")
            }
        }
        Output.flush()
        if !noIndex {
            let added = Set(outcomes.compactMap { $0.entry?.protection == ProtectionMark.none ? $0.entry?.id : nil })
            if !added.isEmpty {
                let report = await LibraryIndexer(store: store, open: UIComposition.open).indexPending(onlyIDs: added)
                for failure in report.failed { Output.error("not indexed for search: \(failure.title): \(failure.reason)") }
            }
        }
        Output.flush()
        if failed > 0 { throw ExitStatus.someFailed }
    }
}

/// `lectern list`: the library, as text or JSON (the bookshelf without a terminal).
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the publications of the library."
    )

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Option(help: "Sort by title, author, recent or series (a series' books in their order).")
    var sort: String = "title"

    func run() async throws {
        let (store, problem) = UIComposition.store()
        guard let store else {
            Output.error(problem ?? "the library cannot be opened")
            throw ExitStatus.cannotOpen
        }
        await CalibreRefresh.run(store: store, configured: ReaderConfig.load().calibreLibrary) { Output.error($0) }
        let entries = try store.entries(sort: LibraryStore.Sort(rawValue: sort) ?? .title)
        let loans = entries.contains { $0.licenseID != nil } ? UIComposition.loanStates(try? LibraryDatabase.process.get().lcp)(Date()) : [:]
        if json {
            Output.json(.array(entries.map { entry in
                var object = JSONObject()
                object["id"] = .int(Int(entry.id))
                object["title"] = .string(entry.title)
                object["author"] = .string(entry.author)
                object["format"] = .string(entry.format)
                object["protection"] = .string(entry.protection.rawValue)
                object["loan"] = entry.licenseID.flatMap { loans[$0] }.map { .string($0.label) } ?? .null
                object["progress"] = entry.progress.map(JSONValue.double) ?? .null
                object["path"] = .string(entry.path)
                object["missing"] = .bool(Self.isMissing(entry))
                object["identity"] = .string(entry.identity)
                object["series"] = entry.series.map(JSONValue.string) ?? .null
                object["series_index"] = entry.series == nil ? .null : entry.seriesIndex.map(JSONValue.double) ?? .null
                object["tags"] = .array(entry.tags.map(JSONValue.string))
                object["cover"] = entry.cover.map(JSONValue.string) ?? .null
                return .object(object)
            }))
        } else {
            for entry in entries {
                let progress = entry.progress.map { " \(Int(($0 * 100).rounded()))%" } ?? ""
                let loan = entry.licenseID.flatMap { loans[$0] }.map { " (\($0.label))" } ?? ""
                let mark = entry.protection == .none ? "" : " [\(entry.protection.label)]"
                let missing = Self.isMissing(entry) ? " [missing]" : ""
                Output.line("\(entry.title)\(CalibreImportCommand.about(entry.series, entry.seriesIndex, entry.tags)) — \(entry.author)\(mark)\(loan)\(progress)\(missing) — \(entry.path)")
            }
        }
        Output.flush()
    }

    /// A file moved or deleted since it was imported (a URL is not looked up).
    static func isMissing(_ entry: LibraryEntry) -> Bool {
        !entry.path.contains("://") && access(entry.path, F_OK) != 0
    }
}

import ArgumentParser
import FoundationEssentials
import ReaderUI
import Shared

/// `lectern [PATH…]`: without paths, the terminal bookshelf; with paths, lists the
/// publications found at the given files and folders, opened restricted without prompting,
/// with their title, author, format and protection.
struct ShelfCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shelf",
        abstract: "The bookshelf (the default command); with paths, list the publications in files and folders."
    )

    @Argument(help: "Publication files or folders to list.", completion: .file())
    var paths: [String] = []

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func run() async throws {
        if paths.isEmpty, !json {
            // Before the terminal is taken (its messages would not be seen): a stat per
            // remembered calibre library when calibre changed nothing.
            let dependencies = UIComposition.dependencies()
            if let store = UIComposition.store().0 {
                await CalibreRefresh.run(store: store, configured: dependencies.config.calibreLibrary, report: nil)
            }
            let status = await ReaderApp(dependencies: dependencies).runBookshelf()
            if status != 0 { throw ExitCode(status) }
            return
        }
        let scans = paths.map { PublicationFolderScan(path: $0, extensions: Self.listedExtensions) }
        let files = scans.flatMap(\.files)
        let problems = scans.flatMap(\.problems)
        if files.isEmpty, problems.isEmpty {
            Output.line("No publications to list. Try: lectern Samples/")
            return
        }
        var rows: [[String]] = []
        var entries: [JSONValue] = []
        // What could not be looked at is listed too, never silently left out.
        for problem in problems {
            rows.append(["—", "", "", "cannot read: \(problem.reason)", problem.path])
            entries.append(.object(JSONObject(["path": .string(problem.path), "error": .string("cannot read: \(problem.reason)")])))
        }
        for file in files {
            do {
                let opened = try await PublicationLoader().open(file, credentials: nil)
                let publication = opened.publication
                let protection = await ProtectionSummary(publication)
                let title = publication.metadata.title ?? opened.asset.name
                let author = publication.metadata.authors.first?.name ?? ""
                let mark = protection.map { ($0.name ?? $0.scheme) + ($0.restricted ? " (locked)" : "") } ?? ""
                rows.append([title, author, opened.asset.format.description, mark, file])
                entries.append(.object(JSONObject([
                    "path": .string(file), "title": .string(title), "author": .string(author),
                    "format": .string(opened.asset.format.description), "protection": protection?.json ?? .null,
                ])))
                publication.close()
            } catch {
                rows.append(["—", "", "", "cannot open: \(error.userMessage)", file])
                entries.append(.object(JSONObject(["path": .string(file), "error": .string(error.userMessage)])))
            }
        }
        if json {
            Output.json(.array(entries))
        } else {
            printTable(header: ["TITLE", "AUTHOR", "FORMAT", "PROTECTION", "FILE"], rows: rows)
        }
    }

    private func printTable(header: [String], rows: [[String]]) {
        let limits = [40, 24, 10, 30, 60]
        // Shown on one line, controls visible, before the columns are measured.
        let all = ([header] + rows).map { $0.map(TerminalText.singleLine) }
        let widths = header.indices.map { column in min(limits[column], all.map { $0[column].count }.max() ?? 0) }
        for row in all {
            let cells = row.indices.map { column -> String in
                let cell = row[column].count > widths[column] ? String(row[column].prefix(widths[column] - 1)) + "…" : row[column]
                return column == row.count - 1 ? cell : cell.padding(widths[column] + 1)
            }
            Output.line(cells.joined())
        }
    }

    /// The extensions of the files listed in folders (licenses and manifests too).
    static let listedExtensions: Set<String> = ["epub", "webpub", "audiobook", "lcpa", "lcpau", "lcpdf", "lcpl", "cbz", "zab", "pdf", "json", "fb2", "cbr", "cb7", "cbt", "mobi", "azw3", "azw", "prc"]
}

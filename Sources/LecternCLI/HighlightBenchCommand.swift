import Annotations
import ArgumentParser
import Bookshelf
import FoundationEssentials
import ReaderUI
import Shared
import Terminal

/// `lectern highlight-bench PATH` (hidden): runs the reader in-process on a memory canvas, as
/// its tests do, and times (a) drawing the first page without highlights and with `--page`
/// of them on it, (b) the `A` key of a book with `--list` annotations, from the key to the
/// list drawn. JSON for `Benchmarks/highlights.py`. The annotations live in memory (the
/// library's store has its own figures); quotes are left out of those drawn, so that they are
/// drawn by their range and never re-anchored.
struct HighlightBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "highlight-bench",
        abstract: "Time drawing highlights and listing annotations in-process (benchmark aid).",
        shouldDisplay: false
    )

    @Argument(help: "The book (its first chapter must fill a page).", completion: .file())
    var path: String

    @OptionGroup var credentials: CredentialsOption

    @Option(help: "Highlights on the first page.")
    var page = 50

    @Option(help: "Annotations of the book listed by A.")
    var list = 5_000

    @Option(help: "Timed repetitions of each measure.")
    var repeats = 20

    func run() async throws {
        let opened = try await PublicationLoader().openForCommand(path, credentials: credentials)
        guard let href = opened.publication.readingOrder.first?.href else { throw ValidationError("the book has no chapter") }
        opened.publication.close()
        let drawn = (0..<max(page, 0)).map { index in
            Annotation(target: AnnotationTarget(href: href, textRange: index * 20..<index * 20 + 8), color: .yellow)
        }
        let listed = (0..<max(list, 1)).map { index in
            Annotation(target: AnnotationTarget(href: href, quote: TextQuote(exact: "passage \(index) of the book", prefix: "", suffix: ""),
                                                headings: ["Chapter \(index / 100)"]),
                       note: index % 3 == 0 ? "a note on passage \(index)" : nil)
        }
        let folder = FileManager.default.temporaryDirectory.path + "/lectern-highlight-bench-\(ProcessInfo.processInfo.processIdentifier)"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let plain = try await Self.pageDraws(path, annotations: [], folder: folder + "/plain", repeats: repeats)
        let highlighted = try await Self.pageDraws(path, annotations: drawn, folder: folder + "/page", repeats: repeats)
        let opening = try await Self.listOpenings(path, annotations: listed, folder: folder + "/list", repeats: repeats)
        Output.json(.object(JSONObject([
            "highlights": .int(drawn.count), "annotations": .int(listed.count),
            "plainDrawMs": .array(plain.map(JSONValue.double)), "highlightedDrawMs": .array(highlighted.map(JSONValue.double)),
            "listOpenMs": .array(opening.map(JSONValue.double)),
        ])))
    }

    /// Times `repeats` draws of the first page once its highlights are read.
    @MainActor static func pageDraws(_ path: String, annotations: [Annotation], folder: String, repeats: Int) async throws -> [Double] {
        let (app, canvas) = try await reader(path, annotations: annotations, folder: folder)
        defer { app.press(.character("q")) }
        if !annotations.isEmpty {
            try await waitUntil("the highlights drawn") {
                app.redraw()
                return (0..<canvas.size.rows).contains { row in
                    (0..<canvas.size.columns).contains { canvas.style(row: row, column: $0)?.background == .indexed(228) }
                }
            }
        }
        return (0..<max(repeats, 1)).map { _ in time { app.redraw() } }
    }

    /// Times `repeats` openings of the `A` list, from the key to the list drawn.
    @MainActor static func listOpenings(_ path: String, annotations: [Annotation], folder: String, repeats: Int) async throws -> [Double] {
        let (app, canvas) = try await reader(path, annotations: annotations, folder: folder)
        defer { app.press(.character("q")) }
        let title = "(\(annotations.count)/\(annotations.count))"
        try await waitUntil("the annotations read") {
            app.press(.character("A"))
            defer { app.press(.escape) }
            return canvas.text.contains(title)
        }
        return (0..<max(repeats, 1)).map { _ in
            let spent = time { app.press(.character("A")) }
            app.press(.escape)
            return spent
        }
    }

    /// The reader on a 80×24 canvas of 256 colours, showing the first page of `path`, its
    /// annotations `annotations` (read from memory).
    @MainActor static func reader(_ path: String, annotations: [Annotation], folder: String) async throws -> (ReaderApp, MemoryCanvas) {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let library: Library
        do throws(LibraryError) { library = try Library(path: folder + "/library.sqlite") } catch {
            throw ValidationError(error.userMessage)
        }
        var dependencies = ReaderApp.Dependencies(library: library, open: UIComposition.open, config: ReaderConfig())
        dependencies.cacheFolder = folder + "/cache"
        dependencies.annotations = { _, _ in
            BookAnnotationStore(list: { annotations }, save: { _ in }, delete: { _ in })
        }
        let app = ReaderApp(dependencies: dependencies)
        let canvas = MemoryCanvas(rows: 24, columns: 80, colorCount: 256)
        app.startReader(path: path, on: canvas)
        try await waitUntil("the first page") {
            app.redraw()
            return canvas.text.contains("p. 1/")
        }
        return (app, canvas)
    }

    @MainActor static func waitUntil(_ what: String, _ condition: @MainActor () -> Bool) async throws {
        for _ in 0..<3_000 {
            if condition() { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw ValidationError("timed out waiting for \(what)")
    }

    @MainActor static func time(_ body: @MainActor () -> Void) -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        body()
        let spent = clock.now - start
        return Double(spent.components.seconds) * 1000 + Double(spent.components.attoseconds) / 1e15
    }
}

import ArgumentParser
import Bookshelf
import FoundationEssentials
import LibrarySearch
import Shared
#if canImport(Glibc)
import Glibc
#endif

/// `lectern search QUERY…`: passages of the library's unprotected publications that match,
/// best first (SQLite FTS5, BM25 ranking), with a snippet and the position to open them at.
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find passages in the text of every unprotected publication of the library.",
        discussion: """
            Every word must occur, case and accents ignored; "two words" must occur together; \
            a word ending in * matches the words it begins. Protected publications are never \
            indexed. Publications are indexed when imported (and by the bookshelf, in the \
            background); `lectern index` indexes those that are not yet. \
            Each passage is named by its book, author and section (the table of contents' title). \
            Exit status: 0 found, 1 nothing found, 2 no query or the library cannot be opened.
            """
    )

    // Optional for the parser, so that no words at all is this command's "no query" (2), not
    // the parser's usage error (64).
    @Argument(help: "The words to find.")
    var words: [String] = []

    @Option(help: "At most this many passages.")
    var limit: Int = 20

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() async throws {
        guard let query = FullTextQuery(words.joined(separator: " ")) else {
            Output.error("nothing to search for: give a word with a letter or a digit")
            throw ExitStatus.cannotOpen
        }
        let (store, problem) = UIComposition.store()
        guard let store else {
            Output.error(problem ?? "the library cannot be opened")
            throw ExitStatus.cannotOpen
        }
        let hits = try store.searchFullText(query, limit: max(1, min(limit, 10_000)))
        // Only a hint beside the hits; the search itself reported its own failure above.
        if let coverage = try? store.fullTextCoverage(), coverage.pending > 0 {
            Output.error("\(coverage.pending) publication\(coverage.pending == 1 ? " is" : "s are") not indexed yet: `lectern index` indexes them")
        }
        let sections = await Self.sections(of: hits)
        if json {
            Output.json(.array(hits.map { Self.json($0, section: sections.title(of: $0)) }))
        } else {
            let bold = isatty(1) == 1
            for hit in hits {
                Output.line(TerminalText.singleLine(Self.heading(hit, section: sections.title(of: hit))))
                let snippet = hit.snippet.map { part in
                    let text = TerminalText.singleLine(part.text)
                    return part.isMatch && bold ? "\u{1B}[1m" + text + "\u{1B}[22m" : text
                }.joined()
                // The parts were sanitised one by one; the bold marks are Lectern's own.
                Output.writeAll(1, Array("  \(snippet)\n".utf8))
            }
        }
        Output.flush()
        if hits.isEmpty {
            Output.error("nothing found for \(TerminalText.singleLine(words.joined(separator: " ")))")
            throw ExitStatus.someFailed
        }
    }

    /// A hit's first line: book, author when known, section and how far into it.
    static func heading(_ hit: FullTextHit, section: String) -> String {
        let percent = Int((hit.progression * 100).rounded(.down))
        let author = hit.publication.author
        let hasAuthor = author.contains { !$0.isWhitespace }
        return ([hit.publication.title] + (hasAuthor ? [author] : []) + ["\(section) \(percent)%"]).joined(separator: " — ")
    }

    /// The section titles of the hits' publications, each opened once (never asking for a
    /// password: only unprotected publications are indexed).
    static func sections(of hits: [FullTextHit]) async -> HitSections {
        var byPath: [String: SectionTitles] = [:]
        for path in Set(hits.map(\.publication.path)) {
            guard case .success(let opened) = await UIComposition.open(path, false, nil) else { continue }
            byPath[path] = SectionTitles(tableOfContents: opened.publication.tableOfContents)
            opened.publication.close()
        }
        return HitSections(byPath: byPath)
    }

    /// Section titles by publication path.
    struct HitSections {
        let byPath: [String: SectionTitles]

        /// The hit's section title, else its file name (percent-decoded).
        func title(of hit: FullTextHit) -> String {
            byPath[hit.publication.path]?.title(of: hit.href) ?? SectionTitles.fileLabel(hit.href)
        }
    }

    static func json(_ hit: FullTextHit, section: String) -> JSONValue {
        var object = JSONObject()
        object["id"] = .int(Int(hit.publication.id))
        object["title"] = .string(hit.publication.title)
        object["author"] = .string(hit.publication.author)
        object["section"] = .string(section)
        object["path"] = .string(hit.publication.path)
        object["href"] = .string(hit.href)
        object["progression"] = .double(hit.progression)
        object["snippet"] = .string(hit.snippetText)
        object["highlight"] = .string(hit.highlight)
        object["locator"] = hit.locator.json
        return .object(object)
    }
}

/// `lectern index`: indexes for `lectern search` the unprotected publications that are not yet.
struct IndexCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Index the text of the library's unprotected publications for `lectern search`.",
        discussion: "Resumes where an earlier indexing stopped. Exit status: 0 all indexed, 1 some could not be."
    )

    func run() async throws {
        let (store, problem) = UIComposition.store()
        guard let store else {
            Output.error(problem ?? "the library cannot be opened")
            throw ExitStatus.cannotOpen
        }
        let report = await LibraryIndexer(store: store, open: UIComposition.open).indexPending()
        for failure in report.failed { Output.error("not indexed: \(failure.title): \(failure.reason)") }
        Output.line("indexed: \(report.indexed.count) publication\(report.indexed.count == 1 ? "" : "s")")
        Output.flush()
        if !report.failed.isEmpty { throw ExitStatus.someFailed }
    }
}

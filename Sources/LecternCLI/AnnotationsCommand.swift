import Annotations
import ArgumentParser
import Bookshelf
import Shared
import TextLayout

/// `lectern annotations …`: a book's highlights and notes, listed, removed, exported and
/// imported. `lectern annotations PATH` lists them.
struct AnnotationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "annotations",
        abstract: "List, remove, export and import highlights and notes.",
        discussion: """
            Exit status: 0 done, 1 the library could not be written, 2 cannot be opened (or no \
            such annotation), 3 restricted by its protection.
            """,
        subcommands: [AnnotationsListCommand.self, AnnotationsRemoveCommand.self, AnnotationsExportCommand.self,
                      AnnotationsImportCommand.self],
        defaultSubcommand: AnnotationsListCommand.self
    )
}

/// `lectern annotations [list] PATH [--json]`.
struct AnnotationsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List a publication's annotations: chapter, quote, note, colour, date.",
        discussion: """
            An annotation whose quote is no longer in the book is marked orphaned (kept, never \
            dropped). A locked book's quotes stay sealed until its passphrase is known. Printing \
            an LCP book's quotes is copying: each consumes its characters from the copy \
            allowance, and past it an annotation is listed without its quote.
            """
    )

    @Argument(help: "The publication file.", completion: .file())
    var path: String

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @OptionGroup var credentials: CredentialsOption

    func run() async throws {
        let book = try await AnnotationCommandBook.open(path, credentials: credentials, unlocked: false)
        defer { book.publication.close() }
        let annotations: [Annotation]
        do throws(LibraryError) {
            annotations = try book.annotations()
        } catch {
            Output.error("\(path): \(error.userMessage)")
            throw ExitStatus.cannotOpen
        }
        let publication = book.publication
        let orphans = publication.isRestricted ? [] : await Blocking.run {
            AnnotationPlacement.orphans(annotations, in: publication)
        }
        // The quotes are the book's words: printed through its copy right, as `lectern listen` does.
        var words = PrintedWords(publication, noun: "quotes")
        let withContext = book.entry.protection != .lcp
        if json {
            var values: [JSONValue] = []
            for annotation in annotations {
                var printed: String?
                if let quote = annotation.target.quote { printed = await words.printable(quote.exact) }
                values.append(Self.value(annotation, orphaned: orphans.contains(annotation.id), quote: printed, withContext: withContext))
            }
            Output.json(.array(values))
            return
        }
        if annotations.isEmpty { Output.line("\(path): no annotations") }
        for annotation in annotations {
            let target = annotation.target
            let chapter = target.headings.last ?? target.href
            var header = "\(annotation.id)  \(chapter)  \(annotation.color.rawValue)"
            if annotation.style != .solid { header += " \(annotation.style.rawValue)" }
            header += "  \(RFC3339Date.display(annotation.created))"
            if orphans.contains(annotation.id) { header += "  [orphaned]" }
            Output.line(header)
            if let quote = target.quote {
                if let printed = await words.printable(quote.exact) {
                    Output.line("  “\(TerminalText.singleLine(printed))”")
                } else {
                    Output.line("  [quote left out: the book's copy allowance does not cover it]")
                }
            } else if target.quoteIsSealed {
                Output.line("  [quote sealed: give the book's passphrase or password to see it]")
            }
            if let note = annotation.note {
                for line in note.split(separator: "\n", omittingEmptySubsequences: false) { Output.line("  > \(line)") }
            }
        }
    }

    /// An annotation as listed: `quote` is its quoted text as allowed to be printed (nil when
    /// sealed or withheld); its context only `withContext` (not an LCP book's: only the quoted
    /// words are counted against the copy allowance).
    static func value(_ annotation: Annotation, orphaned: Bool, quote: String?, withContext: Bool) -> JSONValue {
        let target = annotation.target
        let context = withContext && quote != nil ? target.quote : nil
        var object = JSONObject()
        object["id"] = .string(annotation.id)
        object["href"] = .string(target.href)
        object["chapter"] = target.headings.last.map(JSONValue.string) ?? .null
        object["headings"] = .array(target.headings.map(JSONValue.string))
        object["quote"] = quote.map(JSONValue.string) ?? .null
        object["prefix"] = context.map { .string($0.prefix) } ?? .null
        object["suffix"] = context.map { .string($0.suffix) } ?? .null
        object["quoteSealed"] = .bool(target.quoteIsSealed)
        object["quoteWithheld"] = .bool(target.quote != nil && quote == nil)
        object["note"] = annotation.note.map(JSONValue.string) ?? .null
        object["color"] = .string(annotation.color.rawValue)
        object["style"] = .string(annotation.style.rawValue)
        object["textRange"] = target.textRange.map { .array([.int($0.lowerBound), .int($0.upperBound)]) } ?? .null
        object["progression"] = target.progression.map(JSONValue.double) ?? .null
        object["totalProgression"] = target.totalProgression.map(JSONValue.double) ?? .null
        object["created"] = .string(RFC3339Date.string(annotation.created))
        object["modified"] = .string(RFC3339Date.string(annotation.modified))
        object["orphaned"] = .bool(orphaned)
        return .object(object)
    }
}

/// `lectern annotations remove PATH ID`.
struct AnnotationsRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove an annotation (a tombstone is kept for syncing)."
    )

    @Argument(help: "The publication file.", completion: .file())
    var path: String

    @Argument(help: "The annotation's id, as listed.")
    var id: String

    @OptionGroup var credentials: CredentialsOption

    func run() async throws {
        let book = try await AnnotationCommandBook.open(path, credentials: credentials, unlocked: false)
        defer { book.publication.close() }
        let known: Bool
        do throws(LibraryError) {
            known = try book.annotations().contains { $0.id == id }
            if known { try book.store.deleteAnnotation(id: id, publicationID: book.entry.id) }
        } catch {
            Output.error("\(path): \(error.userMessage)")
            throw ExitStatus.someFailed
        }
        guard known else {
            Output.error("\(path): no annotation \(id)")
            throw ExitStatus.cannotOpen
        }
        Output.line("removed: \(id)")
    }
}

/// Whether annotations still find their passage in the book.
enum AnnotationPlacement {
    /// The ids of the annotations whose resource is gone from the book, or that
    /// ``QuoteAnchoring`` can no longer place in it (their quote is not there).
    static func orphans(_ annotations: [Annotation], in publication: Publication) -> Set<String> {
        let loader = ContentDocumentLoader(publication: publication)
        // Per resource: missing from the book (nil), or its text (nil when it has none to check).
        var resources: [String: AnchoringText??] = [:]
        var orphans = Set<String>()
        for annotation in annotations {
            let href = Href.removingFragment(annotation.target.href)
            if resources[href] == nil {
                let link = publication.readingOrder.first { Href.removingFragment($0.href) == href }
                resources[href] = link.map { .some((try? loader.load($0)).map { AnchoringText($0.plainText) }) } ?? .none
            }
            guard let resource = resources[href], let found = resource else {
                orphans.insert(annotation.id)
                continue
            }
            if let text = found, QuoteAnchoring.locate(annotation.target, in: text) == .orphaned { orphans.insert(annotation.id) }
        }
        return orphans
    }
}

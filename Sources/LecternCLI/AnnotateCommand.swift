import Annotations
import ArgumentParser
import Bookshelf
import Shared

/// `lectern annotate PATH --quote TEXT [--occurrence N] [--color C] [--style S] [--note TEXT]`:
/// highlights a passage found by its words, as the reader's highlight would, and prints the
/// new annotation's id.
struct AnnotateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "annotate",
        abstract: "Highlight a passage of a publication, found by its exact text, with an optional note.",
        discussion: """
            The passage is looked for in the text as the reader shows it, chapter after chapter. \
            The book is added to the library when it is not there yet. A protected book's quote \
            is kept sealed in the library, never in clear. Prints the annotation's id. Exit \
            status: 0 highlighted, 2 cannot be opened or the text is not found, 3 restricted by \
            its protection.
            """
    )

    @Argument(help: "The publication file.", completion: .file())
    var path: String

    @Option(help: "The exact text to highlight.")
    var quote: String

    @Option(help: "Which occurrence of the text, counted from 1 in reading order.")
    var occurrence = 1

    @Option(help: "The colour: \(HighlightColor.allCases.map(\.rawValue).joined(separator: ", ")).")
    var color = HighlightColor.yellow.rawValue

    @Option(help: "The style: \(HighlightStyle.allCases.map(\.rawValue).joined(separator: ", ")).")
    var style = HighlightStyle.solid.rawValue

    @Option(help: "A note (Markdown).")
    var note: String?

    @OptionGroup var credentials: CredentialsOption

    func validate() throws {
        guard quote.contains(where: { !$0.isWhitespace }) else { throw ValidationError("--quote must have some text") }
        guard occurrence >= 1 else { throw ValidationError("--occurrence counts from 1") }
        guard HighlightColor(rawValue: color) != nil else {
            throw ValidationError("--color must be one of \(HighlightColor.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard HighlightStyle(rawValue: style) != nil else {
            throw ValidationError("--style must be one of \(HighlightStyle.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() async throws {
        let book = try await AnnotationCommandBook.open(path, credentials: credentials, unlocked: true)
        defer { book.publication.close() }
        let publication = book.publication
        let quote = quote, occurrence = occurrence
        let found = await Blocking.run { () -> Result<AnnotationTarget, AnnotationQuoteFinder.Failure> in
            do throws(AnnotationQuoteFinder.Failure) {
                return .success(try AnnotationQuoteFinder(publication: publication).target(of: quote, occurrence: occurrence))
            } catch {
                return .failure(error)
            }
        }
        let target: AnnotationTarget
        switch found {
        case .success(let placed):
            target = placed
        case .failure(.notFound(let count)):
            Output.error(count == 0 ? "\(path): the text is not in the book"
                                    : "\(path): the text occurs \(count) time(s), not \(occurrence)")
            throw ExitStatus.cannotOpen
        case .failure(.unreadable(let reason)):
            Output.error("\(path): \(reason)")
            throw ExitStatus.cannotOpen
        }
        let annotation = Annotation(target: target, color: HighlightColor(rawValue: color) ?? .yellow,
                                    style: HighlightStyle(rawValue: style) ?? .solid, note: note.flatMap { $0.isEmpty ? nil : $0 })
        if book.entry.protection != .none, book.sealing == nil {
            Output.error("\(path): the quote cannot be kept sealed (the book's key is not known)")
            throw ExitStatus.restricted
        }
        do throws(LibraryError) {
            try book.store.saveAnnotation(annotation, publicationID: book.entry.id, sealing: book.sealing)
        } catch {
            Output.error("\(path): \(error.userMessage)")
            throw ExitStatus.someFailed
        }
        Output.line(annotation.id)
    }
}

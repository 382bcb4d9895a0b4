import Annotations
import ArgumentParser
import Bookshelf
import Shared
import TextLayout

/// `lectern annotations import FILE [--into PATH]`: reads a Readium Annotation Set, Lectern's
/// JSON or KOReader's metadata, places each annotation in the book (by its position, else by
/// its quote) and adds them to the library, saying how many were placed, re-anchored and
/// orphaned.
struct AnnotationsImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import annotations: a Readium .annotation file, Lectern's JSON export, or KOReader's metadata.*.lua (or .sdr folder).",
        discussion: """
            Each publication of the file goes to the library's book with its identifier (else its \
            title), or to --into PATH. An annotation whose position no longer holds its quote is \
            re-anchored by the quote; one whose quote is not in the book is kept, listed as \
            orphaned. An annotation with an id already there replaces it. Exit status: 0 \
            imported, 1 some publication has no book to go to, 2 the file cannot be read, 3 the \
            book's protection refuses.
            """
    )

    @Argument(help: "The file of annotations.", completion: .file())
    var file: String

    @Option(help: "The publication to import into (else found in the library).", completion: .file())
    var into: String?

    @OptionGroup var credentials: CredentialsOption

    func run() async throws {
        let file = file
        let read = await Blocking.run { () -> Result<[AnnotatedPublication], AnnotationImportError> in
            do throws(AnnotationImportError) {
                return .success(try AnnotationImporter.read(contentsOf: file))
            } catch {
                return .failure(error)
            }
        }
        let publications: [AnnotatedPublication]
        switch read {
        case .success(let read): publications = read
        case .failure(let error):
            Output.error("\(file): \(error.message)")
            throw ExitStatus.cannotOpen
        }
        var unmatched = 0
        for imported in publications {
            for reason in imported.skipped.prefix(5) { Output.error("\(file): skipped: \(reason)") }
            if imported.skipped.count > 5 { Output.error("\(file): \(imported.skipped.count - 5) more entries skipped") }
            guard let path = try into ?? Self.libraryPath(of: imported) else {
                Output.error("\(file): no book of the library is “\(imported.title)”; give --into PATH")
                unmatched += 1
                continue
            }
            let book = try await AnnotationCommandBook.open(path, credentials: credentials, unlocked: true)
            defer { book.publication.close() }
            let publication = book.publication
            let annotations = imported.annotations
            let (placed, tally) = await Blocking.run { AnnotationImportPlacement(publication: publication).place(annotations) }
            do throws(LibraryError) {
                try book.store.saveAnnotations(placed, publicationID: book.entry.id, sealing: book.sealing)
            } catch {
                Output.error("\(path): \(error.userMessage)")
                throw ExitStatus.someFailed
            }
            Output.line("\(book.entry.title): \(placed.count) imported — \(tally.placed) placed, \(tally.reanchored) re-anchored, "
                        + "\(tally.orphaned) orphaned" + (tally.deleted > 0 ? ", \(tally.deleted) deletions" : ""))
        }
        if unmatched > 0 { throw ExitStatus.someFailed }
    }

    /// The path of the library's book `imported` belongs to: the one with its identifier, else
    /// the only one with its title.
    static func libraryPath(of imported: AnnotatedPublication) throws -> String? {
        let (store, problem) = UIComposition.store()
        guard let store else {
            Output.error(problem ?? "the library cannot be opened")
            throw ExitStatus.cannotOpen
        }
        let entries = try store.entries(sort: .title)
        if let identifier = imported.identifier,
           let entry = entries.first(where: { AnnotationsExportCommand.identifier(ofIdentity: $0.identity) == identifier }) {
            return entry.path
        }
        let titled = entries.filter { $0.title.lowercased() == imported.title.lowercased() }
        return titled.count == 1 ? titled[0].path : nil
    }
}

/// Places imported annotations in a book's text (``QuoteAnchoring``), chapter by chapter.
struct AnnotationImportPlacement {
    let publication: Publication

    struct Tally {
        var placed = 0, reanchored = 0, orphaned = 0, deleted = 0
    }

    private struct Chapter {
        let href: String
        let document: TextDocument?
        let text: AnchoringText?
    }

    /// The annotations with their targets placed (range, progressions, href when found in
    /// another chapter, a missing quote filled in from the text), and how each fared.
    func place(_ annotations: [Annotation]) -> ([Annotation], Tally) {
        let loader = ContentDocumentLoader(publication: publication)
        let chapters = publication.readingOrder.map { link in
            let document = try? loader.load(link)
            return Chapter(href: Href.removingFragment(link.href), document: document,
                           text: document.map { AnchoringText($0.plainText) })
        }
        let lengths = chapters.map { $0.text?.count ?? 0 }
        let total = lengths.reduce(0, +)
        var tally = Tally()
        var placed: [Annotation] = []
        placed.reserveCapacity(annotations.count)
        for var annotation in annotations {
            guard !annotation.deleted else {
                tally.deleted += 1
                placed.append(annotation)
                continue
            }
            var target = annotation.target
            var index = chapters.firstIndex { !target.href.isEmpty && $0.href == Href.removingFragment(target.href) }
            if index == nil, let xpointer = target.xpointerStart, let spine = KOReaderAnnotations.spineIndex(ofXPointer: xpointer),
               chapters.indices.contains(spine) {
                index = spine
            }
            var result = index.flatMap { chapters[$0].text }.map { QuoteAnchoring.locate(target, in: $0) } ?? .orphaned
            if result.range == nil, target.quote != nil {
                // The position does not resolve: the quote is looked for in every chapter.
                var loose = target
                loose.textRange = nil
                for (other, chapter) in chapters.enumerated() where other != index {
                    guard let text = chapter.text, case .reanchored(let range) = QuoteAnchoring.locate(loose, in: text) else { continue }
                    index = other
                    result = .reanchored(range)
                    break
                }
            }
            switch result {
            case .placed: tally.placed += 1
            case .reanchored: tally.reanchored += 1
            case .orphaned: tally.orphaned += 1
            }
            if let index, let range = result.range {
                let chapter = chapters[index]
                target.href = chapter.href
                target.textRange = range
                target.progression = lengths[index] > 0 ? Double(range.lowerBound) / Double(lengths[index]) : 0
                target.totalProgression = total > 0 ? min(1, Double(lengths[..<index].reduce(0, +) + range.lowerBound) / Double(total)) : nil
                if target.quote == nil, let document = chapter.document, !range.isEmpty {
                    target.quote = TextQuote(exact: document.text(in: range),
                                             prefix: document.text(in: max(0, range.lowerBound - 32)..<range.lowerBound),
                                             suffix: document.text(in: range.upperBound..<min(document.length, range.upperBound + 32)))
                    target.quoteWithheld = false
                }
                if target.headings.isEmpty {
                    target.headings = AnnotationQuoteFinder.headings(in: publication.tableOfContents, href: chapter.href,
                                                                     at: range.lowerBound, of: chapter.document)
                }
            }
            annotation.target = target
            placed.append(annotation)
        }
        return (placed, tally)
    }
}

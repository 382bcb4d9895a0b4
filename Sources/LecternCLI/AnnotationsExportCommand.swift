import Annotations
import ArgumentParser
import Bookshelf
import FoundationEssentials
import LCP
import Shared
#if canImport(Glibc)
import Glibc
#endif

/// `lectern annotations export (PATH | --all) --format F [--output FILE] [--force]`.
///
/// An LCP book's quotes are its text: exporting them is copying them, so each quote exported
/// consumes its characters from the license's copy allowance, as copying does; a quote the
/// allowance does not cover is left out (its place and note are kept), and the file and
/// standard error say so. Only the quoted words are exported for such a book, not the context
/// around them, so that what is consumed is exactly what is written.
struct AnnotationsExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export the annotations of a publication, or of the whole library.",
        discussion: """
            Formats: markdown, org, json (Lectern's, read back by import), readium (the Readium \
            Annotation Set, .annotation). Written to standard output unless --output is given; \
            an existing file is never replaced without --force. Exit status: 0 exported, 1 the \
            file could not be written, 2 cannot be opened, 3 exported with some quotes left out \
            because the book's copy allowance did not cover them.
            """
    )

    @Argument(help: "The publication file (or --all).", completion: .file())
    var path: String?

    @Flag(help: "Every publication of the library that has annotations.")
    var all = false

    @Option(help: "markdown, org, json or readium.")
    var format: String

    @Option(help: "The file to write (standard output when not given).", completion: .file())
    var output: String?

    @Flag(help: "Replace the --output file when it exists.")
    var force = false

    @OptionGroup var credentials: CredentialsOption

    func validate() throws {
        if (path == nil) == !all { throw ValidationError("Give a publication file or --all, not both.") }
        guard AnnotationExportFormat(rawValue: format) != nil else {
            throw ValidationError("--format must be one of \(AnnotationExportFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() async throws {
        let format = AnnotationExportFormat(rawValue: format) ?? .json
        if let output, !force, access(output, F_OK) == 0 {
            Output.error("\(output): already exists; give --force to replace it")
            throw ExitStatus.cannotOpen
        }
        var publications: [AnnotatedPublication] = []
        var withheld: [(title: String, count: Int, locked: Bool)] = []
        if let path {
            let book = try await AnnotationCommandBook.open(path, credentials: credentials, unlocked: false)
            defer { book.publication.close() }
            let exported = try await Self.exported(book.annotations(), entry: book.entry, publication: book.publication)
            publications.append(exported)
            let locked = book.entry.protection == .lcp && book.sealing == nil
            if exported.quotesWithheld > 0 { withheld.append((exported.title, exported.quotesWithheld, locked)) }
        } else {
            let (store, problem) = UIComposition.store()
            guard let store else {
                Output.error(problem ?? "the library cannot be opened")
                throw ExitStatus.cannotOpen
            }
            for entry in try store.entries(sort: .title) {
                guard let (exported, locked) = try await Self.exported(entry, store: store), !exported.annotations.isEmpty else { continue }
                publications.append(exported)
                if exported.quotesWithheld > 0 { withheld.append((exported.title, exported.quotesWithheld, locked)) }
            }
        }
        let data = AnnotationExporter.export(publications, as: format, generated: Date())
        try write(Array(data))
        for book in withheld {
            let reason = book.locked ? "the book is locked (give its passphrase once)" : "the copy allowance of its license did not cover them"
            Output.error("\(book.title): \(book.count) quote(s) left out: \(reason) (their places and notes are exported)")
        }
        if !withheld.isEmpty { throw ExitStatus.restricted }
    }

    /// A library entry's annotations for export, the book opened only when it is an LCP one
    /// (its license counts what is copied), and whether it stayed locked; nil when it has none.
    static func exported(_ entry: LibraryEntry, store: LibraryStore) async throws -> (AnnotatedPublication, locked: Bool)? {
        let sealing: QuoteSealing? = entry.protection == .none || entry.protection == .lcp ? nil : .password()
        guard try !store.annotations(publicationID: entry.id, sealing: sealing).isEmpty else { return nil }
        guard entry.protection == .lcp else {
            return (try await exported(store.annotations(publicationID: entry.id, sealing: sealing), entry: entry, publication: nil), false)
        }
        // The remembered passphrase opens it, or its quotes stay sealed (and are withheld).
        let opened = try? await PublicationLoader().open(entry.path, credentials: nil).publication
        defer { opened?.close() }
        let lcpSealing = opened.flatMap { AnnotationCommandBook.sealing(for: $0, protection: .lcp) }
        return (try await exported(store.annotations(publicationID: entry.id, sealing: lcpSealing), entry: entry, publication: opened),
                lcpSealing == nil)
    }

    /// `annotations` as exported: an LCP book's quotes each consume their characters from the
    /// copy allowance, or are withheld.
    static func exported(_ annotations: [Annotation], entry: LibraryEntry, publication: Publication?) async -> AnnotatedPublication {
        var annotations = annotations
        if entry.protection == .lcp {
            let license = publication?.lcpLicense
            for index in annotations.indices {
                var target = annotations[index].target
                guard target.quote != nil || target.quoteIsSealed else { continue }
                if var quote = target.quote, let license, await license.copy(text: quote.exact).isGranted {
                    quote.prefix = ""
                    quote.suffix = ""
                    target.quote = quote
                } else {
                    target.quote = nil
                    target.quoteWithheld = true
                }
                target.quoteIsSealed = false
                annotations[index].target = target
            }
        }
        let metadata = publication?.metadata
        return AnnotatedPublication(identifier: metadata?.identifier ?? identifier(ofIdentity: entry.identity),
                                    title: entry.title, authors: metadata.map { $0.authors.map(\.name) }
                                        ?? entry.author.split(separator: ", ").map(String.init),
                                    annotations: annotations)
    }

    /// The package identifier a content identity was made from (`id:IDENTIFIER#SIZE`).
    static func identifier(ofIdentity identity: String) -> String? {
        guard identity.hasPrefix("id:"), let hash = identity.lastIndex(of: "#") else { return nil }
        let identifier = String(identity[identity.index(identity.startIndex, offsetBy: 3)..<hash])
        return identifier.isEmpty ? nil : identifier
    }

    /// Writes the export to `--output` (created with mode 0600, never over a file without
    /// `--force`) or standard output (shown safely on a terminal).
    func write(_ bytes: [UInt8]) throws {
        guard let output else {
            if isatty(1) == 1 {
                Output.text(String(decoding: bytes, as: UTF8.self))
            } else {
                Output.writeAll(1, bytes)
            }
            return
        }
        let descriptor = open(output, O_WRONLY | O_CREAT | O_CLOEXEC | (force ? O_TRUNC : O_EXCL), 0o600)
        guard descriptor >= 0 else {
            let reason = errno == EEXIST ? "already exists; give --force to replace it" : String(cString: strerror(errno))
            Output.error("\(output): \(reason)")
            throw ExitStatus.someFailed
        }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                Output.error("\(output): \(String(cString: strerror(errno)))")
                throw ExitStatus.someFailed
            }
            offset += written
        }
    }
}

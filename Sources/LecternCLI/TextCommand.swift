import ArgumentParser
import FoundationEssentials
import Shared
#if canImport(Glibc)
import Glibc
#endif

/// `lectern text PATH [--page N]`: writes the text of a PDF publication's pages to standard
/// output, pages separated by a form feed (as `pdftotext` does). Writing the text out is
/// copying it, so it goes through the publication's copy right, and is refused when the
/// rights forbid it.
struct TextCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "text",
        abstract: "Write the text of a PDF publication's pages to standard output.",
        discussion: """
            Exit status: 0 written, 1 a page could not be read, 2 cannot be opened (or has no \
            page text), 3 restricted or copying not allowed.
            """
    )

    @Argument(help: "The PDF file, LCP PDF package or URL.", completion: .file())
    var path: String

    @Option(help: "Only this page, counted from 1.")
    var page: Int?

    @OptionGroup var credentials: CredentialsOption

    func run() async throws {
        let opened = try await PublicationLoader().openForCommand(path, credentials: credentials)
        let publication = opened.publication
        defer { publication.close() }
        try publication.requireUnlocked(path: path)
        guard let service = publication.pageTextService, service.pageCount > 0 else {
            Output.error("\(path): no page text (lectern text reads PDF publications)")
            throw ExitStatus.cannotOpen
        }
        guard await publication.rights.canCopy else {
            Output.error("\(path): its rights do not allow copying, so its text cannot be written out")
            throw ExitStatus.restricted
        }

        let pages: Range<Int>
        if let page {
            guard page >= 1, page <= service.pageCount else {
                throw ValidationError("--page must be between 1 and \(service.pageCount)")
            }
            pages = (page - 1)..<page
        } else {
            pages = 0..<service.pageCount
        }
        var text = ""
        var unreadable: [Int] = []
        for index in pages {
            // The page break is Lectern's own; the page's text is shown with its controls
            // (a form feed inside a page among them) visible.
            if index > pages.lowerBound { text += "\u{0C}" }
            if let pageText = service.text(ofPage: index) {
                text += TerminalText.sanitized(pageText)
                if !pageText.hasSuffix("\n") { text += "\n" }
            } else {
                unreadable.append(index + 1)
            }
        }
        // All or nothing: a right that counts characters (LCP) is consumed once for the lot.
        guard await publication.rights.copy(text: text).isGranted else {
            Output.error("\(path): copying this much text is not allowed by its rights")
            throw ExitStatus.restricted
        }
        Output.writeAll(1, Array(text.utf8))
        if !unreadable.isEmpty {
            Output.error("\(path): page(s) \(unreadable.map(String.init).joined(separator: ", ")) could not be read")
            throw ExitStatus.someFailed
        }
    }
}

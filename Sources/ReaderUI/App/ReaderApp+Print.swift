import Bookshelf
import FoundationEssentials
import Shared
import Terminal
import TextLayout
#if canImport(Glibc)
import Glibc
#endif

/// Pages chosen for printing.
///
/// A printed page of a reflowable book is a page of the *print layout*: the chapter laid out
/// by the reader's layout engine at ``PrintLayout/columns`` cells, ``PrintLayout/lines`` lines
/// a page, pages separated by form feeds — a fixed size, so that a page count means the same
/// whatever the window. A PDF's printed pages are its own pages.
public struct PrintJob: Sendable, Hashable {
    /// The first and last page, 1-based, in the chapter's print layout (or the PDF).
    public let first: Int
    public let last: Int
    public var pageCount: Int { last - first + 1 }
}

/// The fixed page of the print layout (plain text on a printer's default page).
enum PrintLayout {
    static let columns = 72
    static let lines = 60

    static func layout(_ document: TextDocument, paragraphIndent: Int) -> LaidOutDocument {
        LayoutEngine.layout(document, options: LayoutOptions(width: columns, paragraphIndent: paragraphIndent))
    }

    static func pageCount(_ layout: LaidOutDocument) -> Int {
        max(1, (layout.lineCount + lines - 1) / lines)
    }

    /// Pages `first…last` (1-based) as text, separated by form feeds.
    static func text(_ layout: LaidOutDocument, job: PrintJob) -> String {
        (job.first...job.last).map { page in
            layout.displayText(lines: ((page - 1) * lines)..<(page * lines))
        }.joined(separator: "\n\u{0C}") + "\n"
    }
}

extension ReaderApp {
    // MARK: - Print

    /// Asks which pages to print: of the chapter's print layout, or of the PDF.
    func startPrint(_ book: BookController) {
        guard let document = book.document else {
            message = "Still loading: print once the page is shown."
            return
        }
        if book.source.isPaged {
            let pages = book.source.count
            overlays.append(PromptScreen(state: PromptState(kind: .printRange(pageCount: pages, current: book.state.chapter + 1))))
            return
        }
        let indent = config.paragraphIndent
        let offset = book.state.topOffset
        book.tasks.start(.print, computing: {
            await Blocking.run { () -> (count: Int, current: Int) in
                let layout = PrintLayout.layout(document, paragraphIndent: indent)
                let line = layout.lineIndex(containing: offset) ?? 0
                return (PrintLayout.pageCount(layout), line / PrintLayout.lines + 1)
            }
        }, then: { [weak self] pages in
            guard let self else { return }
            self.overlays.append(PromptScreen(state: PromptState(kind: .printRange(pageCount: pages.count, current: pages.current))))
            self.render()
        })
    }

    /// Parses "3", "3-5" or nothing (the current page), then checks the print rights.
    func choosePrintRange(_ book: BookController, text: String, pageCount: Int, current: Int) {
        let parts = text.trimmed.split(separator: "-", omittingEmptySubsequences: false).map { String($0).trimmed }
        var first = current, last = current
        if parts.count == 1, !parts[0].isEmpty, let page = Int(parts[0]) { first = page; last = page }
        if parts.count == 2, let from = Int(parts[0].isEmpty ? "1" : parts[0]), let to = Int(parts[1].isEmpty ? String(pageCount) : parts[1]) {
            first = from; last = to
        }
        guard parts.count <= 2, first >= 1, last >= first, last <= pageCount else {
            message = "Not a page range of 1-\(pageCount): \(text)"
            return
        }
        let job = PrintJob(first: first, last: last)
        let rights = book.publication.rights
        book.tasks.start(.print, computing: {
            let left = await rights.allowance
            return (allowed: left.print.allows(job.pageCount), left: left, spooler: await Blocking.run { PrintSpooler.command })
        }, then: { [weak self] answer in
            guard let self else { return }
            let (allowed, left, spooler) = answer
            guard allowed else {
                self.message = Self.printRefusal(job, left: left.print.amount, problem: left.problem)
                self.render()
                return
            }
            if spooler != nil {
                self.print(book, job: job, to: nil)
            } else {
                self.overlays.append(PromptScreen(state: PromptState(kind: .printFile(job))))
                self.render()
            }
        })
    }

    /// Why printing `job` is refused: the rights' `problem` when they could not be read, else
    /// the pages `left`.
    nonisolated static func printRefusal(_ job: PrintJob, left: Int?, problem: String? = nil) -> String {
        if let problem { return "Print refused: the print allowance cannot be counted (\(TerminalText.singleLine(problem)))." }
        let asked = job.pageCount == 1 ? "1 page" : "\(job.pageCount) pages"
        guard let left else { return "Print refused: this publication's rights do not allow printing \(asked)." }
        return "Print refused: \(asked) asked, only \(left == 1 ? "1 page" : "\(left) pages") left to print."
    }

    func printToFile(_ book: BookController, job: PrintJob, path: String) {
        guard !path.isEmpty else {
            message = "Not printed: no file named."
            return
        }
        let expanded = path.hasPrefix("~/") ? (ProcessInfo.processInfo.environment["HOME"] ?? "") + path.dropFirst() : path
        print(book, job: job, to: LibraryImporter.absolutePath(expanded))
    }

    /// Consumes the print right, then sends the pages to `lp` (no `file`) or writes them to `file`.
    func print(_ book: BookController, job: PrintJob, to file: String?) {
        guard let document = book.document else { return }
        let rights = book.publication.rights
        let indent = config.paragraphIndent
        let publication = book.publication
        let paged = book.source.isPaged
        let title = book.title
        message = "Printing…"
        // Unkeyed: the pages go out even if the book closes meanwhile; only the message is dropped.
        book.tasks.start(nil, computing: {
            let decision = await rights.print(pages: job.pageCount)
            let now = decision.allowance
            guard decision.isGranted else { return Self.printRefusal(job, left: now.print.amount, problem: now.problem) }
            return await Blocking.run { () -> String in
                var bytes: [UInt8]
                var isPDF = false
                if paged, let pdf = PDFPrinting.extract(publication: publication, job: job) {
                    bytes = pdf
                    isPDF = true
                } else if paged {
                    // The PDF cannot be cut (no qpdf, or a password it needs): its text.
                    bytes = Array(((job.first - 1)..<job.last).compactMap { publication.pageTextService?.text(ofPage: $0) }
                        .joined(separator: "\n\u{0C}").utf8)
                } else {
                    bytes = Array(PrintLayout.text(PrintLayout.layout(document, paragraphIndent: indent), job: job).utf8)
                }
                let left = now.print.amount.map { ", \($0 == 1 ? "1 page" : "\($0) pages") left" } ?? ""
                let pages = job.pageCount == 1 ? "1 page" : "\(job.pageCount) pages"
                if let file {
                    guard FileManager.default.createFile(atPath: file, contents: Data(bytes)) else {
                        return "Could not write \(file) (the print right was used)."
                    }
                    return "Saved \(pages) to \(file)\(left)."
                }
                guard let spooler = PrintSpooler.command else { return "No print spooler: nothing sent." }
                let name = spooler.split(separator: "/").last.map(String.init) ?? spooler
                let options = name == "lp" ? ["-t", title] + (isPDF ? [] : ["-o", "document-format=text/plain"]) : []
                let status = ExternalCommand.run([spooler] + options, input: bytes)
                return status == 0 ? "Sent \(pages) to the printer (\(name))\(left)." : "\(name) failed (status \(status.map(String.init) ?? "?"))."
            }
        }, then: { [weak self] result in
            self?.message = result
            self?.render()
        })
    }
}

/// The print spooler: `lp` when installed, or the program named by `LECTERN_PRINT_COMMAND`
/// (which reads the document on standard input); `LECTERN_PRINT_COMMAND=none` always writes
/// to a file instead.
enum PrintSpooler {
    static let variable = "LECTERN_PRINT_COMMAND"

    static var command: String? {
        let chosen = ProcessInfo.processInfo.environment[variable].map { $0.trimmed } ?? "lp"
        if chosen.isEmpty || chosen == "none" { return nil }
        return chosen.hasPrefix("/") ? (access(chosen, X_OK) == 0 ? chosen : nil) : ExternalCommand.find(chosen)
    }
}

/// Cuts pages out of a PDF with `qpdf --pages`, from the publication's (decrypted) bytes.
enum PDFPrinting {
    static func extract(publication: Publication, job: PrintJob) -> [UInt8]? {
        guard ExternalCommand.find("qpdf") != nil, let link = publication.readingOrder.first else { return nil }
        let resource = publication.get(link)
        defer { resource.close() }
        guard case .success(let data) = resource.read() else { return nil }
        let base = XDGDirectories.cache + "/print-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        XDGDirectories.ensure(XDGDirectories.cache)
        let input = base + "-in.pdf", output = base + "-out.pdf"
        defer { unlink(input); unlink(output) }
        guard FileManager.default.createFile(atPath: input, contents: data, attributes: [.posixPermissions: 0o600]) else { return nil }
        let status = ExternalCommand.run(["qpdf", "--empty", "--pages", input, "\(job.first)-\(job.last)", "--", output])
        // qpdf exits 3 for warnings with a usable file.
        guard status == 0 || status == 3, let result = FileManager.default.contents(atPath: output) else { return nil }
        return Array(result)
    }
}

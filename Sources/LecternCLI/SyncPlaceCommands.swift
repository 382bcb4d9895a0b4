import ArgumentParser
import Bookshelf
import FoundationEssentials
import ProgressSync
import Shared

/// `lectern sync push PATH`: sends the book's place in the library.
struct SyncPushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Send a book's place in the library to the sync server.",
        discussion: "Exit status: 0 sent, 1 refused or queued (the server is away: it is sent after the next exchange that succeeds), 2 nothing to send.")

    @Argument(help: "The book's file.", completion: .file())
    var path: String

    func run() async throws {
        let service = try SyncCommandSupport.service()
        let matching: DocumentMatching
        do {
            guard try service.account() != nil else { throw SyncCommandSupport.fail(.notLoggedIn) }
            matching = try service.matching()
        } catch let error as ProgressSyncError {
            throw SyncCommandSupport.fail(error)
        }
        let book = try await SyncCommandSupport.book(path, matching: matching, adding: false)
        defer { book.opened.publication.close() }
        guard let entry = book.entry, entry.locator != nil || entry.progress != nil else {
            Output.error("\(path): no place in the library yet (open it in lectern first)")
            throw ExitCode(2)
        }
        let publication = book.opened.publication
        let locator = entry.locator.flatMap(Locator.init(jsonString:))
        let outgoing = await Blocking.run { SyncPositions.outgoing(locator, progress: entry.progress, in: publication) }
        let outcome: PushOutcome
        do {
            outcome = try await service.push(document: book.document, progress: outgoing.progress, percentage: outgoing.percentage)
        } catch {
            throw SyncCommandSupport.fail(error)
        }
        switch outcome {
        case .pushed:
            Output.line("pushed \(SyncCommandSupport.percent(outgoing.percentage)) (\(outgoing.progress)) of \(entry.title) [\(book.document)]")
        case .queued(let reason):
            Output.error("\(reason); the place waits and is sent after the next exchange that succeeds")
            throw ExitStatus.someFailed
        }
    }
}

/// `lectern sync pull PATH [--json] [--force]`: moves the book's place in the library to the
/// one another device pushed, so that the reader opens there.
struct SyncPullCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pull",
        abstract: "Move a book's place in the library to where another device left it.",
        discussion: """
            Prints the place moved to: its href, progression and XPointer. Our own device's \
            place is ignored, and so is one older than this library's last reading of the book \
            (unless --force). A book not yet in the library is added. Exit status: 0 moved or \
            nothing to do, 1 the server failed or refused, 2 cannot be opened or not logged in.
            """)

    @Argument(help: "The book's file.", completion: .file())
    var path: String

    @Flag(help: "Print JSON.")
    var json = false

    @Flag(help: "Move even to a place older than this library's last reading of the book.")
    var force = false

    func run() async throws {
        let service = try SyncCommandSupport.service()
        let matching: DocumentMatching
        do {
            guard try service.account() != nil else { throw SyncCommandSupport.fail(.notLoggedIn) }
            matching = try service.matching()
        } catch let error as ProgressSyncError {
            throw SyncCommandSupport.fail(error)
        }
        let book = try await SyncCommandSupport.book(path, matching: matching, adding: true)
        defer { book.opened.publication.close() }
        let outcome: PullOutcome
        do {
            outcome = try await service.pull(document: book.document)
        } catch {
            throw SyncCommandSupport.fail(error)
        }
        var report = JSONObject(["document": .string(book.document)])
        switch outcome {
        case .none:
            say(report, moved: false, reason: "none", text: "no device has pushed a place for this book")
        case .own(let place):
            report.set("percentage", .double(place.percentage))
            say(report, moved: false, reason: "own", text: "the last place pushed, \(SyncCommandSupport.percent(place.percentage)), is this device's own")
        case .remote(let place):
            try await move(to: place, book: book, report: &report)
        }
    }

    private func move(to place: KosyncPlace, book: SyncCommandSupport.Book, report: inout JSONObject) async throws {
        report.set("device", .string(place.device))
        report.set("percentage", .double(place.percentage))
        report.set("progress", .string(place.progress))
        report.set("timestamp", place.timestamp.map(JSONValue.int) ?? .null)
        if !force, let entry = book.entry, let read = entry.openedAt, let stamp = place.timestamp,
           Double(stamp) < read.timeIntervalSince1970 {
            say(report, moved: false, reason: "older",
                text: "\(place.device) left it at \(SyncCommandSupport.percent(place.percentage)), before this library's last reading: the place is kept (--force moves)")
            return
        }
        guard let entry = book.entry else {
            Output.error("\(path): the book could not be added to the library")
            throw ExitStatus.cannotOpen
        }
        let publication = book.opened.publication
        let lengths = try? book.store.textLengths(identity: entry.identity)
        let incoming = await Blocking.run { SyncPositions.incoming(place, in: publication, chapterLengths: lengths ?? nil) }
        do {
            try book.store.savePosition(id: entry.id, locator: incoming.locator.jsonString, progress: incoming.percentage)
        } catch {
            Output.error("the place could not be kept: \(error.userMessage)")
            throw ExitStatus.someFailed
        }
        report.set("href", .string(incoming.locator.href))
        report.set("progression", incoming.locator.locations.progression.map(JSONValue.double) ?? .null)
        report.set("xpointer", incoming.xpointer.map(JSONValue.string) ?? .null)
        var text = "moved to \(SyncCommandSupport.percent(place.percentage)) where \(place.device) left it: \(incoming.locator.href)"
            + (incoming.locator.locations.progression.map { " at \(SyncCommandSupport.percent($0)) of it" } ?? "")
            + (incoming.xpointer.map { " (\($0))" } ?? "")
        switch incoming.how {
        case .page(let number): report.set("found_by", .string("page")); text += ", page \(number)"
        case .xpointer: report.set("found_by", .string("xpointer"))
        case .percentage(let why):
            report.set("found_by", .string("percentage"))
            report.set("fallback", .string(why))
            text += "; found by its percentage: \(why)"
        }
        say(report, moved: true, reason: nil, text: text)
    }

    private func say(_ report: JSONObject, moved: Bool, reason: String?, text: String) {
        if json {
            var report = report
            report.set("moved", .bool(moved))
            report.set("reason", reason.map(JSONValue.string))
            Output.json(.object(report))
        } else {
            Output.line(text)
        }
    }
}

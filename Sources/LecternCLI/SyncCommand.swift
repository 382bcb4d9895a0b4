import ArgumentParser
import Bookshelf
import FoundationEssentials
import ProgressSync
import Shared
#if canImport(Glibc)
import Glibc
#endif

/// `lectern sync`: KOReader progress sync (kosync, #32) from the command line.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Keep your place in step with KOReader and other devices through a KOReader sync (kosync) server.",
        discussion: """
            Speaks KOReader's progress sync protocol to its server (koreader-sync-server) or a \
            compatible one (calibre-web-automated, Kavita, Booklore…). Books are matched by \
            KOReader's document id: the partial MD5 of the file (--match filename: the MD5 of \
            the file name). The password is kept only as the MD5 key the protocol sends, in \
            the library database ($XDG_DATA_HOME/lectern/library.sqlite, mode 0600). A place that \
            cannot be pushed waits (one per book, four weeks) and is sent after the next \
            exchange that succeeds.
            """,
        subcommands: [SyncLoginCommand.self, SyncRegisterCommand.self, SyncStatusCommand.self, SyncPushCommand.self,
                      SyncPullCommand.self, SyncLogoutCommand.self, SyncFolderCommand.self, SyncNowCommand.self]
    )
}

/// What login and register share: the server, the user and how to read the password.
struct SyncAccountOptions: ParsableArguments {
    @Argument(help: "The sync server's URL (https://sync.example.org).")
    var url: String

    @Option(help: "The user name on the server.")
    var username: String

    @Option(help: "The password (visible to other users in the process list: prefer the prompt, or standard input when it is not a terminal).")
    var password: String?

    @Option(help: "This device's name, shown on the other devices (default: Lectern on HOST).")
    var device: String?

    @Option(help: "How books are matched: binary (the file's partial MD5, KOReader's default) or filename.")
    var match: String?

    /// The matching asked for, or nil to keep the one set.
    func matching() throws -> DocumentMatching? {
        guard let match else { return nil }
        guard let value = DocumentMatching(rawValue: match) else {
            throw ValidationError("--match is binary or filename")
        }
        return value
    }

    /// Reads the password and runs `step` (the service's login or register) with these options;
    /// returns the service for what the command says next.
    func authenticate(
        with step: (ProgressSyncService) -> (String, String, String, String?, DocumentMatching?) async throws(ProgressSyncError) -> Void
    ) async throws -> ProgressSyncService {
        let service = try SyncCommandSupport.service()
        let matching = try matching()
        let password = try readPassword()
        do {
            try await step(service)(url, username, password, device, matching)
        } catch {
            throw SyncCommandSupport.fail(error)
        }
        return service
    }

    /// The password: `--password` (with a warning), else typed on the terminal with echo off,
    /// else the first line of standard input when it is not a terminal.
    func readPassword() throws -> String {
        if let password {
            Output.error("warning: --password shows the password in the process list; type it at the prompt or pipe it on standard input instead")
            return password
        }
        let typed: String?
        if isatty(0) == 1 {
            typed = TerminalSecret.read(prompt: "Password for \(username): ")
        } else {
            typed = readLine(strippingNewline: true)
        }
        guard let typed, !typed.isEmpty else {
            Output.error("no password given")
            throw ExitCode(2)
        }
        return typed
    }
}

/// `lectern sync login URL --username U`.
struct SyncLoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Log in to a sync server (the password is checked, then kept as its MD5 key).")

    @OptionGroup var account: SyncAccountOptions

    func run() async throws {
        let service = try await account.authenticate(with: ProgressSyncService.login)
        Output.line("logged in to \(account.url) as \(account.username)")
        await SyncCommandSupport.sayFlushed(service)
    }
}

/// `lectern sync register URL --username U`.
struct SyncRegisterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Create a user on a sync server, then stay logged in as it.")

    @OptionGroup var account: SyncAccountOptions

    func run() async throws {
        _ = try await account.authenticate(with: ProgressSyncService.register)
        Output.line("registered \(account.username) on \(account.url), and logged in")
    }
}

/// `lectern sync logout`.
struct SyncLogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Forget the sync account (its key and the places waiting to be pushed).")

    func run() async throws {
        let service = try SyncCommandSupport.service()
        do {
            let had = try service.account()
            try service.logout()
            Output.line(had.map { "logged out of \($0.server) (\($0.username))" } ?? "not logged in")
        } catch {
            throw SyncCommandSupport.fail(error)
        }
    }
}

/// `lectern sync status [--json]`.
struct SyncStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the sync account, this device and the places waiting to be pushed (the key is never shown).")

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let service = try SyncCommandSupport.service()
        do {
            let account = try service.account()
            let device = try service.device()
            let matching = try service.matching()
            let queue = try service.queue()
            if json {
                var object = JSONObject()
                object.set("server", account.map { .string($0.server) } ?? .null)
                object.set("username", account.map { .string($0.username) } ?? .null)
                object.set("device", .string(device.name))
                object.set("device_id", .string(device.id))
                object.set("match", .string(matching.rawValue))
                object.set("queued", .array(queue.map { entry in
                    .object(JSONObject(["document": .string(entry.document), "progress": .string(entry.progress),
                                        "percentage": .double(entry.percentage), "queued_at": .double(entry.queuedAt)]))
                }))
                Output.json(.object(object))
                return
            }
            if let account {
                Output.line("server: \(account.server)")
                Output.line("user: \(account.username)")
            } else {
                Output.line("not logged in (lectern sync login URL --username NAME)")
            }
            Output.line("device: \(device.name) (\(device.id))")
            Output.line("books matched by: \(matching == .binary ? "file content (partial MD5)" : "file name")")
            Output.line(queue.isEmpty ? "no place waiting to be pushed" : "\(queue.count) place\(queue.count == 1 ? "" : "s") waiting to be pushed")
            for entry in queue {
                Output.line("  \(entry.document) \(SyncCommandSupport.percent(entry.percentage)) \(entry.progress)")
            }
        } catch {
            throw SyncCommandSupport.fail(error)
        }
    }
}

import ArgumentParser
import FoundationEssentials
import Shared

/// `lectern consume-rights PATH --copy TEXT --times N` (hidden): consumes copy or print
/// rights through the publication's `UserRights`, as the reader's copy and print commands
/// do, and reports how many attempts were granted. It exists so that tests can check, with
/// real processes, that concurrent consumers never exceed a license's grant.
struct ConsumeRightsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consume-rights",
        abstract: "Consume copy or print rights of a protected publication (testing aid).",
        shouldDisplay: false
    )

    @Argument(help: "The publication file.", completion: .file())
    var path: String

    @OptionGroup var credentials: CredentialsOption

    @Option(help: "Text to copy at each attempt.")
    var copy: String?

    @Option(help: "Pages to print at each attempt.")
    var pages: Int?

    @Option(help: "Number of attempts.")
    var times = 1

    @Option(help: "Wait until this time (seconds since 1970) before the first attempt, so that several processes start together.")
    var startAt: Double?

    func run() async throws {
        let opened = try await PublicationLoader().openForCommand(path, credentials: credentials)
        let publication = opened.publication
        defer { publication.close() }
        let rights = publication.rights
        if let startAt {
            let delay = startAt - Date().timeIntervalSince1970
            if delay > 0 { try await Task.sleep(nanoseconds: UInt64(min(delay, 60) * 1_000_000_000)) }
        }
        var granted = 0
        for _ in 0..<max(times, 0) {
            var allowed = true
            if let copy { allowed = await rights.copy(text: copy).isGranted }
            if let pages, allowed { allowed = await rights.print(pages: pages).isGranted }
            if allowed { granted += 1 }
        }
        let left = await rights.allowance
        var report = JSONObject()
        report["granted"] = .int(granted)
        report["refused"] = .int(max(times, 0) - granted)
        report["charactersLeft"] = left.copy.amount.map(JSONValue.int) ?? .null
        report["pagesLeft"] = left.print.amount.map(JSONValue.int) ?? .null
        Output.json(.object(report))
        Output.flush()
    }
}

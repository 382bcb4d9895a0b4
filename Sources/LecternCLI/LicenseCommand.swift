import ArgumentParser
import FoundationEssentials
import LCP
import Shared
import Synchronization

/// `lectern license info|register|renew|return PATH`: the LCP license of a publication or a
/// bare `.lcpl`, and the License Status actions on it.
struct LicenseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "license",
        abstract: "Show or act on the Readium LCP license of a publication or of a .lcpl file.",
        discussion: """
            Exit status: 0 done, 1 the provider refused or could not be reached, 2 no usable \
            license, 3 (info) the license does not open the book now.
            """,
        subcommands: [Info.self, Register.self, Renew.self, Return.self]
    )

    /// The options every license subcommand takes.
    struct Common: ParsableArguments {
        @Argument(help: "The publication (EPUB, LCPDF, LCPA…) or license (.lcpl).", completion: .file())
        var path: String

        @OptionGroup var credentials: CredentialsOption

        @Flag(help: "Print one JSON object instead of text.")
        var json = false

        /// The license, validated as when opening (no prompt); exits 2 when there is none.
        func license() async throws -> LCPLicense {
            let result = await LCPSetup.withService { service in
                await service.retrieveLicense(path: path, credentials: credentials.credentials,
                                              authentication: nil, allowUserInteraction: false)
            }
            switch result {
            case .success(let license):
                return license
            case .failure(let error):
                Output.error("\(path): \(error.userMessage)")
                if json { Output.json(.object(JSONObject(["path": .string(path), "error": .string(error.userMessage)]))) }
                throw ExitStatus.cannotOpen
            }
        }

        /// Reports the outcome of an action, with the license as it is now.
        func report(_ action: String, _ license: LCPLicense, error: LCPError?, message: String?, extra: JSONObject = JSONObject()) async throws {
            if json {
                var object = extra
                object["path"] = .string(path)
                object["action"] = .string(action)
                object["ok"] = .bool(error == nil)
                object["error"] = error.map { .string($0.userMessage) } ?? .null
                object["message"] = message.map(JSONValue.string) ?? .null
                object["license"] = await LicenseSummary(license: license).json
                Output.json(.object(object))
            } else {
                if let message { Output.line(message) }
                for (label, value) in await LicenseSummary(license: license).fields { Output.line((label + ":").padding(14) + value) }
                if let locked = license.error { Output.line("Locked:".padding(14) + locked.userMessage) }
            }
            if let error {
                Output.error("\(path): \(error.userMessage)")
                throw ExitStatus.someFailed
            }
        }
    }

    struct Info: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the license: id, provider, user, dates, status, rights left, device, links.")

        @OptionGroup var common: Common

        func run() async throws {
            let license = try await common.license()
            let summary = await LicenseSummary(license: license)
            if common.json {
                Output.json(summary.json)
            } else {
                for (label, value) in summary.panelFields { Output.line((label + ":").padding(14) + value) }
            }
            if case .status? = license.error { throw ExitStatus.restricted }
        }
    }

    struct Register: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Register this device with the license's status server.")

        @OptionGroup var common: Common

        func run() async throws {
            let license = try await common.license()
            let wasRegistered = license.isDeviceRegistered
            do {
                try await license.register()
                let message = wasRegistered ? "This device was already registered." : "This device is registered."
                try await common.report("register", license, error: nil, message: message)
            } catch let error as LCPError {
                try await common.report("register", license, error: error, message: nil)
            }
        }
    }

    struct Renew: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Renew the loan, to --end or by the provider's default period.",
            discussion: "With only a web renew page, its address is printed; open it, then run `lectern license info` again.")

        @OptionGroup var common: Common

        @Option(help: "The new end of the loan (RFC 3339, e.g. 2031-01-31T00:00:00Z, or 2031-01-31); at most the license's renewable-to date.")
        var end: String?

        @Flag(help: "Use the provider's web renew page even when the loan can be renewed directly.")
        var web = false

        func validate() throws {
            if let end, RFC3339Date.parse(end) == nil { throw ValidationError("--end must be a date such as 2031-01-31T00:00:00Z") }
        }

        func run() async throws {
            let license = try await common.license()
            let delegate = CommandLineRenewDelegate(end: end.flatMap(RFC3339Date.parse))
            let endBefore = license.rightsEnd
            do {
                try await license.renewLoan(with: delegate, prefersWebPage: web)
                var extra = JSONObject()
                let message: String
                if let page = delegate.webPage {
                    extra["webPage"] = .string(page)
                    message = "Renew this loan on the provider's page: \(page)\nThen run `lectern license info` to see the new end."
                } else {
                    message = "The loan was renewed"
                        + (endBefore.map { " (it ended on \(RFC3339Date.display($0)))" } ?? "")
                        + (license.rightsEnd.map { "; it now ends on \(RFC3339Date.display($0))" } ?? "") + "."
                }
                try await common.report("renew", license, error: nil, message: message, extra: extra)
            } catch let error as LCPError {
                try await common.report("renew", license, error: error, message: nil)
            }
        }
    }

    struct Return: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "return", abstract: "Return the publication to its provider; it no longer opens afterwards.")

        @OptionGroup var common: Common

        func run() async throws {
            let license = try await common.license()
            do {
                try await license.returnPublication()
                try await common.report("return", license, error: nil, message: "The book was returned.")
            } catch let error as LCPError {
                try await common.report("return", license, error: error, message: nil)
            }
        }
    }
}

/// Renewal choices from the command line: the `--end` date (nil = the provider's default
/// period); a web renew page is only printed, since a terminal cannot show it.
final class CommandLineRenewDelegate: LCPRenewDelegate, Sendable {
    let end: Date?
    /// Written by the renewal's task, read by the caller once the renewal has returned.
    private let presentedPage = Mutex<String?>(nil)

    /// The renew page the provider asked to show, if any.
    var webPage: String? { presentedPage.withLock { $0 } }

    init(end: Date?) {
        self.end = end
    }

    func preferredEndDate(maximum: Date?) async -> Date? { end }

    func presentWebPage(url: String) async { presentedPage.withLock { $0 = url } }
}

import ArgumentParser
import LibZip
import Shared

/// `lectern`: the root command.
public struct LecternCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "lectern",
        abstract: "A terminal reader for open and protected publications (EPUB, Readium Web Publications, audiobooks, comics, PDF; Readium LCP, ZIP and PDF passwords).",
        discussion: """
            With no argument, `lectern` shows the bookshelf (the library in \
            $XDG_DATA_HOME/lectern/library.sqlite): `lectern import PATH…` adds publications, \
            `lectern open PATH` reads one, `lectern list` prints the library, and \
            `lectern PATH…` (or `lectern shelf PATH…`) lists the publications in files and folders.

            Exit statuses of `info` and `check`: 0 all readable, 1 some resources failed, \
            2 cannot be opened, 3 opened but restricted by its protection.

            Readium LCP: passphrases are remembered as their SHA-256 in \
            $XDG_DATA_HOME/lectern/library.sqlite. Basic-profile (test) licenses signed with the \
            legacy EDRLab test certificate, whose root was never published, are accepted when \
            their signature verifies and the certificate was valid at the license date; set \
            LECTERN_LCP_TRUST=strict to require a chain to a trusted root; LECTERN_LCP_ANCHORS names a \
            PEM file of further trusted roots. Provider certificates are \
            checked against the certificate revocation list at LECTERN_LCP_CRL_URL (EDRLab's \
            production CRL by default; `none` turns the check off), downloaded in the background and \
            cached; a book opens offline with the last one, or without one when none was ever \
            downloaded (its license information says so).

            A bare license (.lcpl) opens its publication from the provider's server without \
            downloading it whole when the server allows ranges; `lectern acquire` downloads it \
            with the license inside.

            Signed audiobook manifests (Feedbooks/Cantook): signatures are verified with the \
            keys their issuer publishes, cached in $XDG_CACHE_HOME/lectern/jwks. Only known \
            issuers are trusted; LECTERN_AUDIOBOOK_ISSUERS adds some, as space-separated \
            ISSUER or ISSUER=KEY_SET_URL entries.
            """,
        version: BuildInfo.versionLine,
        subcommands: [ShelfCommand.self, OpenCommand.self, ImportCommand.self, ListCommand.self, InfoCommand.self, CheckCommand.self,
                      CatCommand.self, RenderCommand.self, TextCommand.self, ListenCommand.self, AcquireCommand.self,
                      LicenseCommand.self, ConsumeRightsCommand.self, SearchCommand.self, IndexCommand.self, DoctorCommand.self,
                      ServeCommand.self, CatalogCommand.self, SyncCommand.self, ForgetPasswordCommand.self, LCPBenchCommand.self, ListenBenchCommand.self, OverlayBenchCommand.self, HighlightBenchCommand.self,
                      AnnotateCommand.self, AnnotationsCommand.self],
        defaultSubcommand: ShelfCommand.self
    )

    public init() {}

    /// Parses the command line and runs the chosen command, exiting with its status.
    ///
    /// (ArgumentParser's own async `main` is not chosen from another module's top-level code
    /// on Linux, so the dispatch is written out here.)
    public static func runMain() async {
        MemoryTuning.apply()
        // `lectern --version` alone prints the line ArgumentParser would, without building the
        // tree of every subcommand (see parseReaderAlone): process start-up measures what the
        // bookshelf's start has, not the parser's work for a command not run (#28).
        if CommandLine.arguments.dropFirst().elementsEqual(["--version"]) {
            Output.writeAll(1, Array((BuildInfo.versionLine + "\n").utf8))
            return
        }
        // For every command, before any archive is opened (`lectern open` opens its book before
        // the reader is set up; an archive takes the store it finds then): a ranged read of a long
        // deflated entry starts from points an earlier process kept (#28).
        ZipAccessPointStore.shared = ZipAccessPointStore(directory: XDGDirectories.cache + "/zip-points")
        do {
            var command = try Self.parseReaderAlone() ?? parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            Output.flush()
            await LCPSetup.finishBackgroundWork()
        } catch {
            Output.flush()
            await LCPSetup.finishBackgroundWork()
            exitShowing(error)
        }
    }

    /// `lectern open …` and `lectern` alone, parsed by their own command. ArgumentParser's
    /// `parseAsRoot` first builds the tree of every subcommand — their configurations, witness
    /// tables and argument sets: about 6 MB of code and metadata touched before a first page
    /// (#28). Whatever the short way does not take (help, a version, an error) goes the full
    /// way, which reports it as before: parsing has no side effects.
    static func parseReaderAlone(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> (any ParsableCommand)? {
        if arguments.isEmpty { return try? ShelfCommand.parse([]) }
        guard arguments.first == "open", arguments.count > 1 else { return nil }
        let rest = Array(arguments.dropFirst())
        guard !rest.contains(where: { $0 == "-h" || $0 == "--help" || $0 == "--version" || $0.hasPrefix("--generate-completion") }) else { return nil }
        return try? OpenCommand.parse(rest)
    }

    /// ArgumentParser's `exit(withError:)`, its message written through ``Output``: a usage
    /// error quotes the arguments, and an argument may be a hostile file name a glob brought in.
    private static func exitShowing(_ error: any Error) -> Never {
        let message = fullMessage(for: error)
        let code = exitCode(for: error)
        if !message.isEmpty {
            // Help and version go to standard output; errors to standard error.
            let text = TerminalText.sanitized(message) + (message.hasSuffix("\n") ? "" : "\n")
            Output.writeAll(code == .success ? 1 : 2, Array(text.utf8))
        }
        exit(withError: code)
    }
}

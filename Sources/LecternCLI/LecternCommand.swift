import ArgumentParser

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
            LECTERN_LCP_TRUST=strict to require a chain to a trusted root.
            """,
        version: "0.1.0",
        subcommands: [ShelfCommand.self, OpenCommand.self, ImportCommand.self, ListCommand.self, InfoCommand.self, CheckCommand.self, CatCommand.self, RenderCommand.self,
                      ConsumeRightsCommand.self],
        defaultSubcommand: ShelfCommand.self
    )

    public init() {}

    /// Parses the command line and runs the chosen command, exiting with its status.
    ///
    /// (ArgumentParser's own async `main` is not chosen from another module's top-level code
    /// on Linux, so the dispatch is written out here.)
    public static func runMain() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            Output.flush()
            exit(withError: error)
        }
    }
}

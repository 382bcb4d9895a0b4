import ArgumentParser

/// The password or passphrase given on the command line (all three names are accepted, so a
/// person types the word their protection uses).
struct CredentialsOption: ParsableArguments {
    @Option(name: [.customLong("credentials"), .customLong("passphrase"), .customLong("password")],
            help: ArgumentHelp("Password (ZIP, PDF) or passphrase (LCP) to unlock the publication.", valueName: "secret"))
    var credentials: String?
}

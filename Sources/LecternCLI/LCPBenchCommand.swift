import ArgumentParser

/// Placeholder, replaced below.
struct LCPBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "lcp-bench", shouldDisplay: false)
    func run() async throws {}
}

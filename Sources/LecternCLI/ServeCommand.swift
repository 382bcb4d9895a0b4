import ArgumentParser
import FoundationEssentials
import LCP
import PublicationServer
import Shared
#if canImport(Glibc)
import Glibc
#endif

/// `lectern serve PATH… [--port N] [--listen ADDR] [--header 'HOST: Name: Value'] [--passphrase P]`:
/// serves the publications over loopback HTTP (127.0.0.1 and ::1) to a browser, through their
/// Fetchers (decrypted; remote resources proxied, with each `--header` sent to its host only),
/// with the content-protection routes consuming the same copy and print counters as the
/// terminal reader. Prints one reader URL per publication once listening; runs until SIGINT or
/// SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve publications to a web browser over loopback HTTP until interrupted."
    )

    @Argument(help: "The publication files, folders or URLs.", completion: .file())
    var paths: [String]

    @Option(help: "The port to listen on (0, the default, picks a free one).")
    var port = 0

    @Option(help: ArgumentHelp("The address to listen on instead of 127.0.0.1 and ::1 (protected publications are then refused off loopback).",
                               valueName: "address"))
    var listen: String?

    @Option(name: .customLong("header"),
            help: ArgumentHelp("A header sent only to one host's remote resources, e.g. 'books.example: Authorization: Bearer TOKEN' (HOST:PORT for one port); with several publications, for the Nth only: 'N=HOST: Name: Value'.",
                               valueName: "host: name: value"))
    var hostHeaders: [String] = []

    @Option(name: .customLong("allow-host"),
            help: ArgumentHelp("A host whose remote resources may be on a loopback or private address (refused otherwise), e.g. '192.168.1.20:8080'.",
                               valueName: "host[:port]"))
    var allowedHosts: [String] = []

    @OptionGroup var credentials: CredentialsOption

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard !paths.isEmpty else { throw ValidationError("give at least one publication") }
    }

    func run() async throws {
        // Tests and some launchers start processes with these blocked; the server stops on them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)

        let headers = try ServeHeaderScope(hostHeaders, publications: paths.count).headers
        var allowed: [AllowedHost] = []
        for text in allowedHosts {
            guard let host = AllowedHost(parsing: text) else { throw ValidationError("--allow-host '\(text)': expected HOST or HOST:PORT") }
            allowed.append(host)
        }
        // A publication given by its URL names its server itself: that host is allowed.
        allowed += paths.compactMap { Href.isHTTP($0) ? AllowedHost(origin: $0) : nil }

        var served: [ServedPublication] = []
        defer { for entry in served { entry.publication.close() } }
        for (index, path) in paths.enumerated() {
            // Each book fetches with its own headers only (ServeHeaderScope).
            let loader = PublicationLoader(httpClient: InjectedHeadersHTTPClient(base: CurlHTTPClient(), headers: headers[index],
                                                                                 allowedHosts: allowed))
            let publication = try await loader.openForCommand(path, credentials: credentials).publication
            // The file's date is the resources' Last-Modified; a folder or a URL has none: now.
            // A date that cannot be read only costs browsers their cached copy.
            let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date ?? Date()
            served.append(ServedPublication(id: String(index + 1), publication: publication, lastModified: modified))
            try publication.requireUnlocked(path: path)
        }
        // The default is both loopback addresses; an explicit one is the only one.
        let configuration = ServerConfiguration(host: listen ?? "127.0.0.1", port: port, alsoIPv6Loopback: listen == nil)
        let server: PublicationServer
        do {
            server = try PublicationServer(publications: served, configuration: configuration)
        } catch {
            let id = if case .protectedOffLoopback(let id) = error { id } else { "" }
            let path = served.firstIndex { $0.id == id }.map { paths[$0] } ?? listen ?? ""
            Output.error("\(path): \(error.description); serve it on the loopback address (without --listen)")
            throw ExitStatus.restricted
        }
        let ids = served.map(\.id)
        // Which URL is which book, for a person (on standard error: standard output stays one
        // URL per line, for scripts). Titles come from the publications: shown safely.
        let titles = zip(served, paths).map { entry, path in
            TerminalText.singleLine(entry.publication.metadata.title ?? path.split(separator: "/").last.map(String.init) ?? path)
        }
        do {
            try await server.run(handlingSignals: true) { listening in
                for id in ids { Output.line(listening.readerURL(id: id)) }
                Output.flush()
                for (id, title) in zip(ids, titles) { Output.error("“\(title)”: \(listening.readerURL(id: id))") }
            }
        } catch {
            Output.error("cannot serve on \(configuration.host):\(port): \(error)")
            throw ExitStatus.someFailed
        }
        await LCPSetup.finishBackgroundWork()
    }
}

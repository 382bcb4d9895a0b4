import ArgumentParser
import FoundationEssentials
import LCP
import Shared
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `lectern acquire FILE.lcpl [--output PATH]`: downloads the publication of a bare LCP license,
/// checks it against the license, puts the license inside, and prints where it is.
struct AcquireCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "acquire",
        abstract: "Download the publication of an LCP license (.lcpl) with the license inside.",
        discussion: """
            The publication is checked against the length and SHA-256 its license announces, its \
            format recognised from its content, and the license put inside it. Progress is shown \
            on standard error; Ctrl-C cancels and deletes the partial file. The path of the \
            publication is printed on standard output.

            Exit status: 0 acquired, 1 the download or a check failed, 2 the license cannot be \
            used, 130 cancelled.
            """
    )

    @Argument(help: "The license file (.lcpl).", completion: .file())
    var license: String

    @Option(name: [.short, .long], help: "Where to put the publication: a folder (named after the publication) or a file path. Default: the current folder.", completion: .file())
    var output: String?

    @Flag(help: "Print one JSON object instead of the path.")
    var json = false

    func run() async throws {
        guard let data = FileManager.default.contents(atPath: license) else {
            Output.error("\(license): cannot read the file")
            throw ExitStatus.cannotOpen
        }
        let (directory, fileName) = destination()
        Interruption.install()
        let progress = ProgressBar()
        let result = await LCPSetup.withService { service in
            await service.acquirePublication(from: data, in: directory, fileName: fileName,
                                             onProgress: { progress.show($0) }, isCancelled: { Interruption.happened })
        }
        progress.finish()
        switch result {
        case .success(let acquired):
            if json {
                var object = JSONObject()
                object["path"] = .string(acquired.path)
                object["format"] = .string(acquired.format.description)
                object["suggestedFilename"] = .string(acquired.suggestedFilename)
                object["license"] = .string(acquired.license.id)
                Output.json(.object(object))
            } else {
                Output.line(acquired.path)
            }
        case .failure(.cancelled):
            Output.error("\(license): \(LCPError.cancelled.userMessage)")
            throw ExitCode(130)
        case .failure(let error):
            Output.error("\(license): \(error.userMessage)")
            if json { Output.json(.object(JSONObject(["path": .null, "error": .string(error.userMessage)]))) }
            throw error.isIntegrityFailure ? ExitStatus.cannotOpen : ExitStatus.someFailed
        }
    }

    /// The folder to download into and the file name, from `--output`.
    private func destination() -> (String, String?) {
        guard let output, !output.isEmpty else { return (FileManager.default.currentDirectoryPath, nil) }
        var info = stat()
        if stat(output, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return (output, nil) }
        guard let slash = output.lastIndex(of: "/") else { return (FileManager.default.currentDirectoryPath, output) }
        let folder = slash == output.startIndex ? "/" : String(output[..<slash])
        return (folder, String(output[output.index(after: slash)...]))
    }
}

/// Ctrl-C while downloading: the first one asks the download to stop (it then deletes its
/// partial file); a second one ends the process at once.
enum Interruption {
    private static let flag = Atomic<Bool>(false)

    static var happened: Bool { flag.load(ordering: .relaxed) }

    static func install() {
        // Tests and some launchers start processes with SIGINT blocked: unblock it here.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        signal(SIGINT) { _ in
            Interruption.flag.store(true, ordering: .relaxed)
            signal(SIGINT, SIG_DFL)
        }
    }
}

/// The download's progress on standard error: a bar with the percentage when the length is
/// known, the bytes received otherwise; redrawn in place, at most a few times a second, when
/// standard error is a terminal. Elsewhere (a log, a pipe) no escape sequence is written: one
/// line when the download ends.
final class ProgressBar: Sendable {
    private let state = Mutex<(lastDraw: Double, lastText: String, drawn: Bool)>((0, "", false))
    private let isTerminal: Bool

    init(isTerminal: Bool = isatty(2) == 1) {
        self.isTerminal = isTerminal
    }

    func show(_ progress: LCPAcquisitionProgress) {
        let text: String
        switch progress {
        case .percent(let fraction, let received, let total):
            let width = 30
            let filled = Int((fraction * Double(width)).rounded(.down))
            let percent = Int((fraction * 100).rounded(.down))
            text = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
                + String(percent).leftPadded(3) + "%  " + Self.size(received) + " / " + Self.size(total)
        case .indefinite(let received):
            text = "Downloading… " + Self.size(received)
        }
        let now = Date().timeIntervalSince1970
        let shouldDraw = state.withLock { state -> Bool in
            guard text != state.lastText, now - state.lastDraw >= 0.1 || text.contains("100%") else { return false }
            state.lastDraw = now
            state.lastText = text
            state.drawn = true
            return true
        }
        if shouldDraw, isTerminal { Self.write("\r\u{1B}[K" + text) }
    }

    /// Ends the line the bar was drawn on (off a terminal: writes the last state once).
    func finish() {
        let (drawn, last) = state.withLock { ($0.drawn, $0.lastText) }
        guard drawn else { return }
        Self.write(isTerminal ? "\n" : last + "\n")
    }

    static func size(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        if bytes < 1 << 20 { return String(format1(Double(bytes) / 1024)) + " KB" }
        return String(format1(Double(bytes) / Double(1 << 20))) + " MB"
    }

    private static func format1(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    private static func write(_ text: String) {
        Output.writeAll(2, Array(text.utf8))
    }
}

import Bookshelf
import FoundationEssentials
import Shared

/// Serves `publication` to a browser (an in-process loopback server, made once per
/// publication) and returns the URL of its reader page opened at `href` (a reading-order
/// href, with its fragment), or a message saying why it cannot.
public typealias BrowserServing = @Sendable (_ publication: Publication, _ href: String) async -> Result<String, BrowserServingError>

/// Why a publication cannot be shown in the browser, for the status line.
public struct BrowserServingError: Error, Sendable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }
}

extension ReaderApp {
    // MARK: - Open in the browser (`o`)

    /// Opens the chapter shown in the web browser — what a terminal cannot show (figures,
    /// SVG pages, MathML, fixed layout, video) — through an in-process server that applies
    /// the same rights (copy and print counters) as the terminal reader.
    func openInBrowser(_ book: BookController) {
        guard let serving = dependencies.browserServing else {
            message = "Opening in a browser is not available here."
            return
        }
        let publication = book.publication
        let href = book.source.href(book.state.chapter)
        message = "Opening this chapter in the browser…"
        Task { @MainActor [weak self] in
            let result = await serving(publication, href)
            let text: String
            switch result {
            case .failure(let error):
                text = "Cannot open it in the browser: \(error.message)"
            case .success(let url):
                let launched = await Blocking.run { BrowserLauncher.open(url) }
                text = launched.map { "Opened in \($0): \(url)" } ?? "No browser found (set $BROWSER): \(url)"
            }
            guard let self else { return }
            self.message = text
            self.render()
        }
    }
}

/// Starts the person's browser: `$BROWSER` (a `:`-separated list, each tried in turn; `%s`
/// stands for the URL), else `xdg-open`.
enum BrowserLauncher {
    /// The program that took the URL, nil when none could be started.
    static func open(_ url: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        var candidates = (environment["BROWSER"] ?? "").split(separator: ":").map(String.init).filter { !$0.isEmpty }
        candidates.append("xdg-open")
        for candidate in candidates {
            var words = candidate.split(separator: " ").map(String.init)
            guard let program = words.first else { continue }
            if words.contains("%s") {
                words = words.map { $0 == "%s" ? url : $0 }
            } else {
                words.append(url)
            }
            if let status = ExternalCommand.run(words), status == 0 { return program.split(separator: "/").last.map(String.init) }
        }
        return nil
    }
}

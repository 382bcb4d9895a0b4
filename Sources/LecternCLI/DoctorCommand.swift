import ArgumentParser
import Bookshelf
import FoundationEssentials
import Pictures
import ReaderUI
import Shared
import Terminal
#if canImport(Glibc)
import Glibc
#endif

/// `lectern doctor`: what a bug report needs — version, terminal, libraries found, clipboard
/// paths, paths and the library's size — and never a secret (no passphrase, no license
/// content, no file name from the library).
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Print what a bug report needs: version, terminal, libraries, paths (no secrets)."
    )

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() async throws {
        let report = DoctorReport.gather()
        if json {
            Output.json(report.json)
        } else {
            for (section, rows) in report.sections {
                Output.line(section)
                for (name, value) in rows { Output.line("  \(name): \(value)") }
            }
        }
        Output.flush()
    }
}

/// The facts `lectern doctor` prints, by section.
struct DoctorReport {
    var sections: [(String, [(String, String)])]

    var json: JSONValue {
        var object = JSONObject()
        for (section, rows) in sections {
            var inner = JSONObject()
            for (name, value) in rows { inner[name] = .string(value) }
            object[section.lowercased()] = .object(inner)
        }
        return .object(object)
    }

    static func gather() -> DoctorReport {
        let environment = ProcessInfo.processInfo.environment
        var sections: [(String, [(String, String)])] = []
        sections.append(("Lectern", [("version", BuildInfo.version), ("commit", BuildInfo.commit)]))

        let term = environment["TERM"] ?? ""
        sections.append(("Terminal", [
            ("TERM", term.isEmpty ? "(not set)" : term),
            ("COLORTERM", environment["COLORTERM"] ?? "(not set)"),
            ("colours", colourDescription(term: term, environment: environment)),
            ("NO_COLOR", environment["NO_COLOR"] == nil ? "not set" : "set (no colours)"),
            // What the reader will draw with, decided by the reader's own code (config and tmux included).
            ("pictures", picturesDescription(environment: environment)),
            ("standard input and output", isatty(0) == 1 && isatty(1) == 1 ? "a terminal" : "not a terminal"),
            ("locale", environment["LC_ALL"] ?? environment["LC_CTYPE"] ?? environment["LANG"] ?? "(not set)"),
        ]))

        sections.append(("Libraries", [
            ("libcurl (network, LCP status)", loadable(["libcurl.so.4", "libcurl.so"])),
            ("poppler-glib (PDF)", loadable(["libpoppler-glib.so.8", "libpoppler-glib.so"])),
            ("libmpv (audiobooks)", loadable(["libmpv.so.2", "libmpv.so.1", "libmpv.so"])),
            ("print spooler (lp)", executable("lp")),
        ]))
        // Where a copy goes: tmux drops the terminal's OSC 52 by default, so the other paths matter.
        sections.append(("Clipboard", Clipboard.survey(environment: environment)))

        let database = LibraryStore.defaultPath
        var paths: [(String, String)] = [
            ("data", XDGDirectories.data),
            ("config", XDGDirectories.config + "/config.toml" + (FileManager.default.fileExists(atPath: XDGDirectories.config + "/config.toml") ? "" : " (none: defaults)")),
            ("cache", XDGDirectories.cache),
            ("library database", database),
        ]
        if let size = fileSize(database) { paths.append(("library database size", "\(size / 1024) KiB")) }
        sections.append(("Paths", paths))
        // Every mistake of the configuration file, with its line (the reader shows the first).
        let warnings = ReaderConfig.load().warnings
        if !warnings.isEmpty {
            sections.append(("Configuration", warnings.enumerated().map { ("problem \($0.offset + 1)", $0.element) }))
        }

        var library: [(String, String)] = []
        if FileManager.default.fileExists(atPath: database) {
            do throws(LibraryError) {
                let store = try LibraryDatabase.process.get().library
                library.append(("publications", String(try store.count())))
                let coverage = try store.fullTextCoverage()
                library.append(("indexed for search", "\(coverage.indexed) (\(coverage.pending) pending)"))
            } catch {
                // The report is the place to say why, not "no library yet".
                library.append(("library", "unreadable: \(error.userMessage)"))
            }
        } else {
            library.append(("publications", "no library yet"))
        }
        sections.append(("Library", library))
        return DoctorReport(sections: sections)
    }

    /// The colours the terminal offers, from its terminfo entry and COLORTERM.
    static func colourDescription(term: String, environment: [String: String]) -> String {
        if let colorterm = environment["COLORTERM"], colorterm == "truecolor" || colorterm == "24bit" { return "16 million (COLORTERM)" }
        guard !term.isEmpty else { return "unknown (TERM not set)" }
        guard let colours = TerminfoColours.count(term: term) else { return "unknown (no terminfo entry for \(term))" }
        return colours > 0 ? "\(colours)" : "none"
    }

    /// What the reader will draw pictures with: its own setting, probe and decision (tmux
    /// included), in one line.
    static func picturesDescription(environment: [String: String]) -> String {
        let setting = ReaderConfig.load().images
        let answers = ReaderApp.askTerminalAboutPictures(setting: setting, environment: environment)
        return PictureOutput.describe(setting: setting, environment: environment, answers: answers)
    }

    static func loadable(_ names: [String]) -> String {
        for name in names {
            if let handle = dlopen(name, RTLD_LAZY | RTLD_LOCAL) {
                dlclose(handle)
                return "found (\(name))"
            }
        }
        return "not found"
    }

    static func executable(_ name: String) -> String {
        ExternalCommand.find(name) ?? "not found"
    }

    static func fileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }
}

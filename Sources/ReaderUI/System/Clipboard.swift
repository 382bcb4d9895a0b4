import FoundationEssentials
import Shared

/// A program copied text is handed to beside the terminal's own clipboard (OSC 52): tmux's
/// paste buffer, or a desktop clipboard tool.
public struct ClipboardPath: Sendable, Equatable {
    /// The program's name (`tmux`, `wl-copy`, `xclip`, `xsel`).
    public let tool: String
    /// Its full path, found in `PATH`.
    public let executable: String
    /// Whether it is the desktop clipboard (one desktop tool is enough) rather than tmux.
    public let isDesktop: Bool

    /// What the status line calls it.
    public var name: String { tool == "tmux" ? "tmux's paste buffer" : tool }

    /// The command lines to try in turn (the text goes on standard input, never on these):
    /// `load-buffer -w` also sends the text to the outer terminal, but tmux before 3.2
    /// does not know `-w`.
    var commands: [[String]] {
        switch tool {
        case "tmux": [[executable, "load-buffer", "-w", "-"], [executable, "load-buffer", "-"]]
        case "xclip": [[executable, "-selection", "clipboard"]]
        case "xsel": [[executable, "--clipboard", "--input"]]
        default: [[executable]]
        }
    }
}

/// What became of one copy: the paths that took the text and those that refused it.
public struct ClipboardDelivery: Sendable, Equatable {
    public var delivered: [ClipboardPath] = []
    public var failed: [ClipboardPath] = []

    /// " to tmux's paste buffer and xclip", or "" when only the terminal got the text.
    public var destination: String {
        delivered.isEmpty ? "" : " to " + Clipboard.list(delivered.map(\.name))
    }

    /// "; tmux's paste buffer refused it", or "" when no path failed.
    public var refusal: String {
        failed.isEmpty ? "" : "; " + Clipboard.list(failed.map(\.name)) + " refused it"
    }
}

/// Where copied text goes. The terminal always gets OSC 52 (sent by the interface), but tmux
/// by default (`set-clipboard external`) drops it from applications: inside tmux (`$TMUX`)
/// the text is also loaded into tmux's paste buffer. The desktop clipboard gets it too, by
/// `wl-copy` under Wayland or `xclip`/`xsel` under X11, when installed. Blocking: the tools
/// run as child processes, so call ``copy(_:environment:)`` off the main actor.
public enum Clipboard {
    /// The desktop tools, in the order tried, with the variable their display server sets.
    static let desktopTools: [(tool: String, display: String)] = [("wl-copy", "WAYLAND_DISPLAY"), ("xclip", "DISPLAY"), ("xsel", "DISPLAY")]

    /// How long one tool may take: one that hangs must not hold the copy's message forever.
    static let timeout = 5.0

    /// The paths a copy takes in `environment`: tmux inside tmux, then every installed desktop
    /// tool whose display server is set (a copy stops at the first that takes the text).
    public static func paths(environment: [String: String] = ProcessInfo.processInfo.environment) -> [ClipboardPath] {
        var paths: [ClipboardPath] = []
        if isInsideTmux(environment), let tmux = ExternalCommand.find("tmux") {
            paths.append(ClipboardPath(tool: "tmux", executable: tmux, isDesktop: false))
        }
        for (tool, display) in desktopTools where !(environment[display] ?? "").isEmpty {
            if let executable = ExternalCommand.find(tool) {
                paths.append(ClipboardPath(tool: tool, executable: executable, isDesktop: true))
            }
        }
        return paths
    }

    /// Hands `text` to every path of ``paths(environment:)`` on standard input (tmux's paste
    /// buffer, and the first desktop tool that takes it). Blocking.
    public static func copy(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> ClipboardDelivery {
        let bytes = Array(text.utf8)
        var delivery = ClipboardDelivery()
        var desktopDone = false
        for path in paths(environment: environment) {
            if path.isDesktop && desktopDone { continue }
            let taken = path.commands.contains { ExternalCommand.run($0, input: bytes, timeout: timeout) == 0 }
            if taken {
                delivery.delivered.append(path)
                desktopDone = desktopDone || path.isDesktop
            } else {
                delivery.failed.append(path)
            }
        }
        // A desktop tool that failed is no news once another took the text.
        if desktopDone { delivery.failed.removeAll { $0.isDesktop } }
        return delivery
    }

    /// One row per clipboard path for `lectern doctor`: what was found and whether a copy
    /// uses it, ending with where copies go.
    public static func survey(environment: [String: String] = ProcessInfo.processInfo.environment) -> [(String, String)] {
        var rows: [(String, String)] = [("terminal", "OSC 52 (tmux keeps it only with set-clipboard on)")]
        let tmux = ExternalCommand.find("tmux")
        switch (isInsideTmux(environment), tmux) {
        case (true, let tmux?): rows.append(("tmux", "\(tmux) (inside tmux: paste buffer)"))
        case (true, nil): rows.append(("tmux", "inside tmux, but tmux not found"))
        case (false, _): rows.append(("tmux", "not inside tmux"))
        }
        for (tool, display) in desktopTools {
            guard let executable = ExternalCommand.find(tool) else {
                rows.append((tool, "not found"))
                continue
            }
            let used = !(environment[display] ?? "").isEmpty
            rows.append((tool, executable + (used ? " (\(display) set)" : " (unused: \(display) not set)")))
        }
        let found = paths(environment: environment)
        let desktop = found.filter(\.isDesktop).map(\.tool).joined(separator: " or ")
        let destinations = ["the terminal (OSC 52)"] + found.filter { !$0.isDesktop }.map(\.name) + (desktop.isEmpty ? [] : [desktop])
        rows.append(("copies go to", destinations.joined(separator: ", ")))
        return rows
    }

    static func isInsideTmux(_ environment: [String: String]) -> Bool {
        !(environment["TMUX"] ?? "").isEmpty
    }

    /// "a", "a and b", "a, b and c".
    static func list(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }
}

/// Why the terminal could not be used.
public enum TerminalError: Error, Sendable, CustomStringConvertible {
    /// Standard input or output is not a terminal.
    case notATerminal
    /// ncurses does not know `$TERM` (or it is unset).
    case unknownTerminal(String?)

    public var description: String {
        switch self {
        case .notATerminal:
            "the bookshelf and the reader need a terminal (standard input and output are not one); try `lectern list`"
        case .unknownTerminal(let name):
            if let name, !name.isEmpty {
                "the terminal type \"\(name)\" is unknown (no terminfo entry); set TERM to a known type, e.g. TERM=xterm-256color"
            } else {
                "TERM is not set; set it to your terminal type, e.g. TERM=xterm-256color"
            }
        }
    }
}

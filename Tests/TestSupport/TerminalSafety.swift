/// What a terminal would execute in a program's output.
public enum TerminalSafety {
    /// The control characters in `text` a terminal acts on: C0 controls but the line feed and
    /// the tab, DEL, and the C1 controls (U+009B, CSI, among them).
    public static func executableControls(in text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x0A, 0x09: false
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }
    }

    /// ESC ] 52 (set the clipboard), ESC ] 0 (the window title), clear screen, red, and the
    /// C1 CSI with a cursor move: the hostile payload the tests put in names and metadata.
    /// An override (U+202E) too, which would reverse the rest of the line.
    public static let payload = "A\u{1B}]52;c;SGVsbG8=\u{07}B\u{1B}]0;pwned\u{07}C\u{1B}[2J\u{1B}[31mD\u{9B}5AE\u{202E}F"
    /// How ``payload`` is shown once sanitised (`cat -v` notation).
    public static let shownPayload = "A^[]52;c;SGVsbG8=^GB^[]0;pwned^GC^[[2J^[[31mDM-^[5AE<U+202E>F"
}

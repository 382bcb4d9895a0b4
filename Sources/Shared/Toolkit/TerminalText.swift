/// Text from outside — file names, metadata, server answers — made safe to write to a
/// terminal.
///
/// A terminal executes control characters: ESC and the C1 CSI (U+009B) start sequences that
/// set the clipboard (OSC 52), the window title (OSC 0), clear the screen or recolour it.
/// Here every control character except the line feed and the tab is shown instead, in the
/// notation of `cat -v`: C0 controls as `^` and a letter (`^[` for ESC, `^G` for BEL), DEL as
/// `^?`, C1 controls as `M-^` and a letter (`M-^[` for U+009B). Nothing else changes: bidi
/// marks and every printable character, in any script, pass through.
public enum TerminalText {
    /// `text` with its control characters shown, never executed; line feeds and tabs stay.
    public static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isShownVisibly) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isShownVisibly(scalar) else {
                result.append(scalar)
                continue
            }
            let value = scalar.value
            if value >= 0x80 { result.append(contentsOf: "M-".unicodeScalars) }
            result.append("^")
            // ^@ … ^_ for C0 (and C1 less 0x80), ^? for DEL.
            let low = value & 0x7F
            result.append(low == 0x7F ? "?" : Unicode.Scalar(UInt8(low + 0x40)))
        }
        return String(result)
    }

    /// `text` on one line: line feeds and tabs become spaces, and other controls are shown as
    /// by ``sanitized(_:)`` — for a title or a name printed inside a line of output.
    public static func singleLine(_ text: String) -> String {
        let flattened = String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\n" || $0 == "\t" || $0 == "\r" ? " " : $0 }))
        return sanitized(flattened)
    }

    private static func isShownVisibly(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }
}

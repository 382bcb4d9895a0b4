/// Text from outside — file names, metadata, server answers — made safe to write to a
/// terminal.
///
/// A terminal executes control characters: ESC and the C1 CSI (U+009B) start sequences that
/// set the clipboard (OSC 52), the window title (OSC 0), clear the screen or recolour it.
/// Here every control character except the line feed and the tab is shown instead, in the
/// notation of `cat -v`: C0 controls as `^` and a letter (`^[` for ESC, `^G` for BEL), DEL as
/// `^?`, C1 controls as `M-^` and a letter (`M-^[` for U+009B). The bidi embeddings, overrides
/// and isolates (U+202A–U+202E, U+2066–U+2069) are shown as `<U+202E>`: on a terminal that
/// orders bidi text, an unclosed override would reverse the rest of the line — the path
/// printed after a title among it. Nothing else changes: the direction marks (U+200E, U+200F,
/// U+061C) that right-to-left titles use, and every printable character, pass through.
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
            if isBidiControl(scalar) {
                result.append(contentsOf: "<U+\(String(value, radix: 16, uppercase: true))>".unicodeScalars)
                continue
            }
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
        default: isBidiControl(scalar)
        }
    }

    /// Whether `scalar` opens or closes a bidi embedding, override or isolate.
    public static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }
}

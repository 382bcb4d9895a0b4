import CLecternBuildInfo
import FoundationEssentials
import Shared
#if canImport(Glibc)
import Glibc
#endif

/// Writing to the terminal. Only the executable prints: the libraries return values.
///
/// Everything written goes through ``TerminalText/sanitized(_:)``: file names, metadata and
/// server answers are shown, never executed as escape sequences. (`lectern cat` alone writes
/// a resource's bytes as they are, as `cat` does.)
enum Output {
    /// Writes a line to standard output.
    static func line(_ text: String = "") {
        print(TerminalText.sanitized(text))
    }

    /// Writes text to standard output as it is laid out (page text, rendered chapters), with
    /// its control characters shown.
    static func text(_ text: String) {
        writeAll(1, Array(TerminalText.sanitized(text).utf8))
    }

    /// Writes a picture's escape sequences as they are: libchafa made every byte of them from
    /// decoded pixels (colours, block symbols, base64), so nothing from the file reaches the
    /// terminal as a sequence.
    static func picture(_ text: String) {
        writeAll(1, Array(text.utf8))
    }

    /// Writes an error line to standard error, prefixed with the program name.
    static func error(_ text: String) {
        writeAll(2, Array("lectern: \(TerminalText.sanitized(text))\n".utf8))
    }

    /// Writes `bytes` to a file descriptor, whole (retrying short writes), after anything
    /// buffered. The caller has sanitised what came from outside.
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) {
        flush()
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
    }

    /// Writes a JSON value, pretty-printed, to standard output.
    static func json(_ value: JSONValue) {
        print(JSONWriter(style: .pretty).string(value))
    }

    /// Flushes standard output and error (before exiting with a status): only those, see
    /// `lectern_flush_standard_streams`.
    static func flush() {
        lectern_flush_standard_streams()
    }
}

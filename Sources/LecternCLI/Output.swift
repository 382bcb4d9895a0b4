import FoundationEssentials
import Shared
#if canImport(Glibc)
import Glibc
#endif

/// Writing to the terminal. Only the executable prints: the libraries return values.
enum Output {
    /// Writes a line to standard output.
    static func line(_ text: String = "") {
        print(text)
    }

    /// Writes an error line to standard error, prefixed with the program name.
    static func error(_ text: String) {
        flush()
        let bytes = Array("lectern: \(text)\n".utf8)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
    }

    /// Writes a JSON value, pretty-printed, to standard output.
    static func json(_ value: JSONValue) {
        print(JSONWriter(style: .pretty).string(value))
    }

    /// Flushes standard output (before exiting with a status).
    static func flush() {
        fflush(nil)
    }
}

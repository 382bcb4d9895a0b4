import FoundationEssentials
import ReaderSettings
import Synchronization
import TextLayout
#if canImport(Glibc)
import Glibc
#endif

/// The reader's configuration (`config.toml`) and theme files: parsed by ``TOMLParser``, loaded
/// as ``ReaderConfig`` (whose numbers then size a text column and a layout, as the reader
/// does), and read as a ``Theme`` turned into palettes for 8 and 256 colours.
public enum TOMLConfigInput {
    /// Inputs consumed so far, to name their configuration files apart (tests run in parallel).
    static let counter = Atomic<Int>(0)

    static let directory = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"

    /// Where an input is written for ``ReaderConfig/load(path:)``, which reads a file: under
    /// the temporary directory, removed once read.
    static func configPath() -> String {
        let number = counter.add(1, ordering: .relaxed).newValue
        return directory + "/lectern-fuzz-config-\(getpid())-\(number).toml"
    }

    /// Writes `bytes` to a new file at `path`, without the `fsync` of `FileManager` (which
    /// would make writing the input cost more than parsing it).
    static func writeFile(_ bytes: [UInt8], to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }

    /// A paragraph laid out with the configuration's widths and indent.
    static let sample: TextDocument = {
        let html = "<p>Configuration sample.</p><p>A second paragraph, indented as configured.</p>"
        do {
            return try ContentDocumentParser.parse(html: Array(html.utf8), href: "sample.xhtml")
        } catch {
            preconditionFailure("the configuration sample does not parse: \(error)")
        }
    }()

    public static func consume(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        do {
            let root = try TOMLParser.parse(text)
            for (key, value) in root {
                _ = (key, value.string, value.integer, value.boolean, value.strings, value.table?.count)
            }
        } catch {
            _ = error.description
        }
        loadAsConfig(bytes)
        do {
            let theme = try Theme(name: "fuzz", toml: text)
            _ = theme.palette(colorCount: 8)
            _ = theme.palette(colorCount: 256)
        } catch {
            _ = error.description
        }
    }

    static func loadAsConfig(_ bytes: [UInt8]) {
        let configPath = configPath()
        guard writeFile(bytes, to: configPath) else { return }
        defer { _ = unlink(configPath) }
        let config = ReaderConfig.load(path: configPath)
        _ = config.warnings
        for windowWidth in [2, 100] {
            let column = TextColumn(windowWidth: windowWidth, maximumWidth: config.textWidth, minimumMargin: config.margin)
            HarnessInvariant.check(column.leftMargin >= 0 && column.rightMargin >= 0 && column.width >= LayoutOptions.minimumWidth
                                       && column.leftMargin + column.width + column.rightMargin == max(windowWidth, LayoutOptions.minimumWidth),
                                   "the text column \(column) does not fill its window of \(windowWidth) cells")
            guard windowWidth == 100 else { continue }
            let options = LayoutOptions(width: column.width, justify: config.justify, paragraphIndent: config.paragraphIndent)
            _ = LayoutEngine.layout(sample, options: options)
        }
    }
}

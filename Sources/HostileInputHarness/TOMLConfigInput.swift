import FoundationEssentials
import ReaderUI
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

    /// Where an input is written for ``ReaderConfig/load(path:)``, which reads a file: under
    /// the temporary directory, removed once read.
    static func configPath() -> String {
        let number = counter.add(1, ordering: .relaxed).newValue
        return (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/lectern-fuzz-config-\(getpid())-\(number).toml"
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
        guard FileManager.default.createFile(atPath: configPath, contents: Data(bytes)) else { return }
        defer { _ = unlink(configPath) }
        let config = ReaderConfig.load(path: configPath)
        _ = config.warnings
        for windowWidth in [2, 100] {
            let column = TextColumn(windowWidth: windowWidth, maximumWidth: config.textWidth, minimumMargin: config.margin)
            HarnessInvariant.check(column.leftMargin >= 0 && column.rightMargin >= 0 && column.width >= LayoutOptions.minimumWidth
                                       && column.leftMargin + column.width + column.rightMargin == max(windowWidth, LayoutOptions.minimumWidth),
                                   "the text column \(column) does not fill its window of \(windowWidth) cells")
            let options = LayoutOptions(width: column.width, justify: config.justify, paragraphIndent: config.paragraphIndent)
            _ = LayoutEngine.layout(sample, options: options)
        }
    }
}

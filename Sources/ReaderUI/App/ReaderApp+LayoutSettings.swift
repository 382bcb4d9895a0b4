import Terminal
import TextLayout

extension ReaderApp {
    /// Margins `M` steps through, in cells on each side.
    static let marginSteps = [0, 2, 4, 6, 8]
    /// Blank lines between paragraphs `s` steps through.
    static let spacingSteps = [0, 1, 2]

    /// Changes the text column or the paragraph style while reading, lays the chapter out
    /// again at the same place, and saves that one setting in config.toml (its line only).
    func changeLayoutSetting(_ action: ReaderAction, book: BookController) {
        let columns = screen.size.columns
        let current = config.textWidth > 0 ? min(config.textWidth, columns) : columns
        let saved: (key: String, value: String)
        switch action {
        case .narrower:
            config.textWidth = max(20, current - 4)
            saved = ("text_width", String(config.textWidth))
        case .wider:
            config.textWidth = current + 4 >= columns ? 0 : current + 4
            saved = ("text_width", String(config.textWidth))
        case .toggleJustify:
            config.justify.toggle()
            saved = ("justify", config.justify ? "true" : "false")
        case .toggleIndent:
            config.paragraphIndent = config.paragraphIndent > 0 ? 0 : 2
            saved = ("paragraph_indent", String(config.paragraphIndent))
        case .cycleMargin:
            config.margin = Self.marginSteps.first { $0 > config.margin } ?? 0
            saved = ("margin", String(config.margin))
        case .cycleSpacing:
            config.paragraphSpacing = Self.spacingSteps.first { $0 > config.paragraphSpacing } ?? 0
            saved = ("paragraph_spacing", String(config.paragraphSpacing))
        default:
            return
        }
        relayout(book, force: true)
        switch action {
        case .cycleMargin:
            message = "Margins: \(config.margin) cells on each side"
        case .cycleSpacing:
            message = "Paragraph spacing: " + (config.paragraphSpacing == 1 ? "1 blank line" : "\(config.paragraphSpacing) blank lines")
        default:
            let width = config.textWidth == 0 ? "the window's width" : "\(config.textWidth) columns"
            message = "Text: \(width), \(config.justify ? "justified" : "ragged"), \(config.paragraphIndent > 0 ? "indented" : "flush") paragraphs"
        }
        do {
            try ReaderConfig.saveReaderSetting(saved.key, saved.value)
        } catch {
            message = "Could not save the setting: \(error)"
        }
    }
}

/// Who puts right-to-left text in visual order on the screen.
public enum BidiMode: String, Sendable, Hashable, CaseIterable {
    /// Lectern reorders each line (Unicode Bidirectional Algorithm), mirrors brackets and
    /// shapes Arabic letters into their presentation forms: for terminals that draw code
    /// points left to right as they come (most of them).
    case lectern
    /// Lines are sent in logical order, unshaped and unmirrored, for terminals that reorder
    /// and shape by themselves (mlterm, Konsole, VTE with bidi enabled).
    case terminal
}

extension InlineText {
    /// The text as the line renderer must draw it in `mode`: with ``BidiMode/terminal`` no
    /// levels (logical order, no mirroring); with ``BidiMode/lectern`` the Arabic
    /// presentation forms in place of the letters, the lam of a lam-alef ligature kept as a
    /// zero-width U+FEFF so that every cluster keeps its document offset.
    func forDisplay(_ mode: BidiMode) -> InlineText {
        switch mode {
        case .terminal:
            guard levels != nil else { return self }
            var text = self
            text.levels = nil
            return text
        case .lectern:
            guard let shapes else { return self }
            var text = self
            var characters = Clusters(), ligatureLams: [Int] = []
            characters.reserveCapacity(count)
            for index in 0..<count {
                let shape = shapes[index], lead = leads[index]
                guard shape != lead, let scalar = Unicode.Scalar(shape) else {
                    characters.append(self.characters[index], lead: lead)
                    continue
                }
                var view = String.UnicodeScalarView()
                view.append(scalar)
                view.append(contentsOf: self.characters[index].unicodeScalars.dropFirst())
                characters.append(Character(String(view)), lead: shape)
                if shape == 0xFEFF { ligatureLams.append(index) }
            }
            text.replaceCharacters(with: characters)
            for index in ligatureLams { text.setWidth(0, at: index) }
            text.shapes = nil
            return text
        }
    }
}

extension TextBlock {
    /// The block with its text and table cells as they are drawn in `mode` (see
    /// ``InlineText/forDisplay(_:)``).
    func forDisplay(_ mode: BidiMode) -> TextBlock {
        var block = self
        block.text = text.forDisplay(mode)
        if var table {
            for row in table.rows.indices {
                for cell in table.rows[row].indices {
                    table.rows[row][cell].text = table.rows[row][cell].text.forDisplay(mode)
                }
            }
            block.table = table
        }
        return block
    }
}

/// Turns one wrapped line of an ``InlineText`` into spans in visual order: bidi reordering,
/// mirroring, justification, and the hyphen of a soft-hyphen break.
enum LineRenderer {
    struct Rendered {
        /// Spans with columns from 0.
        var spans: [LineSpan]
        var width: Int
    }

    /// Renders `line` of `text`, whose cluster `i` is at document offset `offsetBase + i`.
    /// With `justifyTo`, the gaps between words are widened until the line is that wide.
    static func render(_ text: InlineText, line: LineWrapper.Line, offsetBase: Int, justifyTo: Int?, lineNumber: Int,
                       preformatted: Bool) -> Rendered {
        var end = line.range.upperBound
        while end > line.range.lowerBound {
            let lead = text.lead(at: end - 1)
            guard lead == 0x0A || (!preformatted && lead == 0x20) else { break }
            end -= 1
        }
        let shown = line.range.lowerBound..<end
        let rightToLeft = text.direction == .rightToLeft
        let order: [Int]
        if let levels = text.levels {
            order = VisualOrder.indices(shown, levels: levels, leads: text.leads, paragraphLevel: rightToLeft ? 1 : 0)
        } else {
            order = Array(shown)
        }
        var contentWidth = 0
        for index in order { contentWidth += text.width(at: index) }
        let hyphen = line.end == .softHyphen ? 1 : 0

        // Extra cells after each visual position, for justification.
        var extra = [Int](repeating: 0, count: order.count)
        if let target = justifyTo, target > contentWidth + hyphen {
            let gaps = order.indices.filter { position in
                let index = order[position]
                return text.lead(at: index) == 0x20 && text.breaks[index] == .allowed && position < order.count - 1
            }
            if !gaps.isEmpty {
                let total = target - contentWidth - hyphen
                let each = total / gaps.count, remainder = total % gaps.count
                // Alternate where the remainder goes, so wide gaps do not line up into rivers.
                for (number, position) in gaps.enumerated() {
                    let getsOne = lineNumber % 2 == 0 ? number >= gaps.count - remainder : number < remainder
                    extra[position] = each + (getsOne ? 1 : 0)
                }
            }
        }

        var spans: [LineSpan] = []
        var column = 0
        if hyphen == 1, rightToLeft {
            spans.append(LineSpan(decoration: "-", column: 0, at: offsetBase + line.range.upperBound))
            column = 1
        }
        var characters = Clusters(), widths: [UInt8] = []
        var first = 0, last = 0, step = 0, spanColumn = column
        var style = TextStyle.plain
        func close() {
            guard !characters.isEmpty else { return }
            let low = min(first, last), high = max(first, last)
            spans.append(LineSpan(column: spanColumn, characters: characters, cellWidths: widths, style: style,
                                  offsets: (offsetBase + low)..<(offsetBase + high + 1), isReversed: step < 0))
            characters = Clusters()
            widths.removeAll(keepingCapacity: true)
            step = 0
        }
        for (position, index) in order.enumerated() {
            let clusterStyle = text.styles[index]
            let continues = !characters.isEmpty && clusterStyle == style
                && ((step >= 0 && index == last + 1) || (step <= 0 && index == last - 1))
            if continues {
                if step == 0 { step = index - last }
            } else {
                close()
                first = index
                spanColumn = column
                style = clusterStyle
            }
            last = index
            var character = text.characters[index]
            let lead = text.lead(at: index)
            if lead == 0xA0 || lead == 0x202F || lead == 0x2007, character.unicodeScalars.count == 1 { character = " " }
            if let levels = text.levels, levels[index] % 2 == 1 { character = BidiResolver.mirrored(character) }
            characters.append(character, lead: character.unicodeScalars.first!.value)
            widths.append(UInt8(text.width(at: index)))
            column += text.width(at: index)
            if extra[position] > 0 {
                close()
                column += extra[position]
            }
        }
        close()
        if hyphen == 1, !rightToLeft {
            spans.append(LineSpan(decoration: "-", column: column, at: offsetBase + line.range.upperBound))
            column += 1
        }
        return Rendered(spans: spans, width: column)
    }
}

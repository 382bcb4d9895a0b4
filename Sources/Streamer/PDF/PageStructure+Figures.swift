/// The text of a figure drawn on the page — a plot's tick labels and axis titles — which is
/// often set larger than the running text and would otherwise be taken for headings (#29
/// item 12): size alone does not make a heading.
///
/// - A line with no letter ("0.5", "10", "-2", "0 5 10", "25%") next to another such line
///   (within the three lines on either side) is a figure's scale.
/// - A short line (a few words, no full stop) next to a line of a figure and set about as
///   large (at most a quarter larger) is its label: "Time (s)", "Speed".
/// - A line with letters alone, or a heading much larger than the figure's labels, stays a
///   heading; so does a lone number ("2" set large over a chapter's title).
extension PageStructure {
    /// The indices of `lines` that are a figure's text; `margins` are left out.
    static func figureText(_ lines: [PageLine], margins: Set<Int>, fullWidth: Double) -> Set<Int> {
        let visible = lines.indices.filter { !lines[$0].text.isEmpty && !margins.contains($0) }
        let numeric = visible.filter { isScaleText(lines[$0].text) }
        var figure = Set<Int>()
        for (position, index) in visible.enumerated() where isScaleText(lines[index].text) {
            let near = visible[max(0, position - 3)...min(visible.count - 1, position + 3)]
            if near.contains(where: { $0 != index && numeric.contains($0) }) { figure.insert(index) }
        }
        guard !figure.isEmpty else { return figure }
        // Labels next to the scale, and labels next to those ("Speed" above "1.0").
        var changed = true
        while changed {
            changed = false
            for (position, index) in visible.enumerated() where !figure.contains(index) && isShortLabel(lines[index], fullWidth: fullWidth) {
                let neighbours = [position - 1, position + 1].filter { visible.indices.contains($0) }.map { visible[$0] }
                if neighbours.contains(where: { figure.contains($0) && lines[index].size <= lines[$0].size * 1.25 }) {
                    figure.insert(index)
                    changed = true
                }
            }
        }
        return figure
    }

    /// Digits and what goes with them on a scale, without a letter: "0.5", "−2", "1,000", "25%",
    /// "0 5 10" (poppler joins the labels of one axis into a line).
    static func isScaleText(_ text: String) -> Bool {
        text.contains(where: \.isNumber) && !text.contains(where: \.isLetter)
            && text.allSatisfy { $0.isNumber || " .,:%+-−–×/()[]\u{1F}…".contains($0) }
    }

    /// A few words, shorter than half a line of running text, that do not end a sentence.
    static func isShortLabel(_ line: PageLine, fullWidth: Double) -> Bool {
        line.text.split(separator: " ").count <= 4 && line.width < fullWidth * 0.5 && !line.text.hasSuffix(".")
    }
}

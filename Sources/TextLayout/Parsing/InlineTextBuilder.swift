import TerminalCells

/// Accumulates the text of one paragraph from DOM text nodes: HTML whitespace collapsing (or
/// preservation in `<pre>`), control characters stripped, format characters turned into break
/// opportunities or bidi marks, cluster widths measured once.
struct InlineTextBuilder {
    private(set) var characters = Clusters()
    var leads: PackedScalars { characters.leads }
    private var widths: [UInt8] = []
    private var styles: [TextStyle] = []
    private var explicit: [ExplicitBreak] = []
    /// Bidi formatting characters (from the text or from `dir` attributes) and the cluster
    /// index they precede; they steer the bidi algorithm and are not shown.
    private var bidiMarks: [(index: Int, scalar: UInt32)] = []
    let preformatted: Bool

    /// A collapsed run of white space waiting for the next visible character.
    private var pendingSpace: TextStyle?
    private var pendingSpaceHadNewline = false
    /// The column after the last `"\n"` of preformatted text, for tab stops.
    private var column = 0
    /// Whether the text has (or its marks request) right-to-left characters.
    private(set) var hasRightToLeft = false

    init(preformatted: Bool) {
        self.preformatted = preformatted
    }

    var count: Int { characters.count }
    /// Whether collapsed white space waits for the next character.
    var hasPendingSpace: Bool { pendingSpace != nil }
    var isEmpty: Bool { characters.isEmpty }

    /// Appends the text of a DOM text node.
    mutating func append(_ text: String, style: TextStyle) {
        // ASCII followed by ASCII is always a cluster of its own (CR LF aside): take those
        // bytes directly and segment only the rest into grapheme clusters.
        let utf8 = text.utf8
        var index = utf8.startIndex
        let end = utf8.endIndex
        while index < end {
            let byte = utf8[index]
            let next = utf8.index(after: index)
            if byte < 0x80, byte != 0x0D, next == end || utf8[next] < 0x80 {
                appendASCII(byte, character: Character(Unicode.Scalar(byte)), style: style)
                index = next
                continue
            }
            let character = text[index]
            if let ascii = character.asciiValue {
                appendASCII(ascii, character: character, style: style)
            } else {
                appendOther(character, style: style)
            }
            index = text.index(after: index)
        }
    }

    private mutating func appendASCII(_ ascii: UInt8, character: Character, style: TextStyle) {
        switch ascii {
        case 0x20, 0x09, 0x0A, 0x0C, 0x0D:
            if preformatted {
                switch ascii {
                case 0x0A: appendNewline()
                case 0x09:
                    let spaces = 8 - column % 8
                    for _ in 0..<spaces { appendCluster(" ", lead: 0x20, width: 1, style: style) }
                case 0x0D: break
                default: appendCluster(" ", lead: 0x20, width: 1, style: style)
                }
            } else {
                if pendingSpace == nil { pendingSpace = style }
                if ascii == 0x0A || ascii == 0x0D { pendingSpaceHadNewline = true }
            }
        case 0..<0x20, 0x7F:
            break
        default:
            flushPendingSpace(before: character, width: 1)
            appendCluster(character, lead: UInt32(ascii), width: 1, style: style)
        }
    }

    private mutating func appendOther(_ character: Character, style: TextStyle) {
        var character = character
        var width = CellWidth.of(character)
        if width == 0 {
            guard let first = character.unicodeScalars.first else { return }
            switch first.value {
            case 0x00AD:
                if let last = leads.last, last != 0x20, last != 0x0A, pendingSpace == nil { explicit[count - 1] = .softHyphen }
                return
            case 0x200B:
                if count > 0, pendingSpace == nil { explicit[count - 1] = .allowed }
                return
            case 0x2060, 0xFEFF:
                if count > 0 { explicit[count - 1] = .prohibited }
                return
            case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069:
                flushPendingSpace(before: nil, width: 0)
                addBidiMark(first.value)
                return
            default:
                break
            }
            switch first.properties.generalCategory {
            case .nonspacingMark, .enclosingMark:
                // A mark with nothing to sit on: give it a no-break space, as fonts do.
                character = Character(String(String.UnicodeScalarView([Unicode.Scalar(0xA0)!] + character.unicodeScalars)))
                width = 1
            default:
                return
            }
        }
        if character == "\u{2028}" || character == "\u{2029}" {
            appendNewline()
            return
        }
        if !hasRightToLeft, let first = character.unicodeScalars.first, Self.isStrongRightToLeft(first.value) {
            hasRightToLeft = true
        }
        flushPendingSpace(before: character, width: width)
        appendCluster(character, lead: character.unicodeScalars.first?.value ?? 0, width: width, style: style)
    }

    /// Appends generated text (a marker, a placeholder, parentheses) that must not collapse
    /// with its neighbours' spaces.
    mutating func appendGenerated(_ text: String, style: TextStyle) {
        append(text, style: style)
    }

    /// Appends a list marker padded with spaces to `width` cells; nothing breaks inside it.
    mutating func appendMarker(_ marker: String, width: Int, style: TextStyle) {
        pendingSpace = nil
        append(marker, style: style)
        var used = CellWidth.of(marker)
        repeat {
            appendCluster(" ", lead: 0x20, width: 1, style: .plain)
            used += 1
        } while used < width
        for index in 0..<count { explicit[index] = .prohibited }
    }

    /// A `<br>`: ends the line here.
    mutating func appendLineBreak() {
        appendNewline()
    }

    /// Keeps clusters `start…` (to the last) on one line: a ruby group.
    mutating func prohibitBreaks(from start: Int) {
        guard start < count - 1 else { return }
        for index in max(0, start)..<(count - 1) { explicit[index] = .prohibited }
    }

    /// `<wbr>`: a break opportunity after the last cluster.
    mutating func appendBreakOpportunity() {
        if count > 0, pendingSpace == nil { explicit[count - 1] = .allowed }
    }

    /// An isolate or override opened by a `dir` attribute (LRI, RLI, FSI, LRO, RLO…).
    mutating func addBidiMark(_ scalar: UInt32) {
        // An opening mark goes after the white space before it (which stays outside).
        if scalar != 0x2069, scalar != 0x202C { flushPendingSpace(before: nil, width: 0) }
        bidiMarks.append((count, scalar))
        if scalar == 0x200F || scalar == 0x061C || scalar == 0x202B || scalar == 0x202E || scalar == 0x2067 {
            hasRightToLeft = true
        }
    }

    private mutating func appendNewline() {
        pendingSpace = nil
        pendingSpaceHadNewline = false
        if !preformatted, leads.last == 0x20, explicit.last != .prohibited {
            removeLast()
        }
        appendCluster("\n", lead: 0x0A, width: 0, style: .plain)
        column = 0
    }

    private mutating func flushPendingSpace(before next: Character?, width: Int) {
        guard let style = pendingSpace else { return }
        pendingSpace = nil
        defer { pendingSpaceHadNewline = false }
        guard let last = leads.last, last != 0x20, last != 0x0A else { return }
        // CSS Text: a line feed between two East Asian wide characters disappears.
        if pendingSpaceHadNewline, widths[count - 1] == 2, width == 2 { return }
        appendCluster(" ", lead: 0x20, width: 1, style: style)
    }

    private mutating func appendCluster(_ character: Character, lead: UInt32, width: Int, style: TextStyle) {
        characters.append(character, lead: lead)
        widths.append(UInt8(width))
        styles.append(style)
        explicit.append(.none)
        column += width
    }

    private mutating func removeLast() {
        characters.removeLast()
        widths.removeLast()
        styles.removeLast()
        explicit.removeLast()
    }

    /// Drops trailing collapsible spaces and line breaks (and, in preformatted text, trailing
    /// empty lines).
    mutating func trimEnd() {
        pendingSpace = nil
        while let last = leads.last, last == 0x0A || (!preformatted && last == 0x20 && explicit[count - 1] != .prohibited) {
            removeLast()
        }
    }

    /// Drops a first line feed (HTML ignores the newline right after `<pre>`).
    mutating func dropLeadingNewline() {
        if leads.first == 0x0A {
            characters.removeFirst()
            widths.removeFirst()
            styles.removeFirst()
            explicit.removeFirst()
            bidiMarks = bidiMarks.map { ($0.index > 0 ? $0.index - 1 : 0, $0.scalar) }
        }
    }

    /// The finished text, with break opportunities and bidi levels resolved for `direction`.
    func build(direction: BaseDirection) -> InlineText {
        let breaks = BreakRules.breaks(leads, widths: widths, explicit: explicit, preformatted: preformatted)
        var text = InlineText(characters: characters, widths: widths, styles: StyleRuns(styles), breaks: breaks)
        let needsBidi = hasRightToLeft || direction == .rightToLeft
        if needsBidi, !characters.isEmpty,
           let resolved = BidiResolver.levels(characters, marks: bidiMarks.filter { $0.index <= count }, direction: direction) {
            text.levels = resolved.levels.contains(where: { $0 != 0 }) ? resolved.levels : nil
            text.shapes = resolved.shapes
            text.direction = resolved.direction
        } else {
            text.direction = direction == .rightToLeft ? .rightToLeft : .leftToRight
        }
        return text
    }

    /// Strong right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko… and their
    /// presentation forms): only paragraphs with one of them go through the bidi algorithm.
    static func isStrongRightToLeft(_ value: UInt32) -> Bool {
        switch value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return true
        default: return false
        }
    }
}

/// The base direction requested for a paragraph.
enum BaseDirection: Sendable, Hashable {
    case leftToRight, rightToLeft
    /// From the first strong character (HTML `dir="auto"`, or no `dir` at all), falling back
    /// to the given direction when there is none.
    case firstStrong(fallback: TextDirection)
}

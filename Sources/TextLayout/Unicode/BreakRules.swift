/// Where lines may break: a small, language-aware subset of UAX #14 with Japanese kinsoku.
///
/// - Latin and other space-separated scripts break after spaces, after a hyphen or en dash
///   between letters, and around em dashes; never before a space or closing punctuation,
///   never after opening punctuation, never around a no-break space or word joiner.
/// - Ideographs, kana, fullwidth forms and wide emoji may break between any two clusters,
///   except before a character that may not start a line (`、。」）ー` and small kana…) and after
///   one that may not end a line (`「（`…), and never inside `……` or `——`. Hangul breaks at
///   spaces, like Latin (Korean sets words apart).
/// - Soft hyphens, zero-width spaces and `<wbr>` add opportunities; `<br>` forces a break.
enum BreakRules {
    /// The break kinds after each cluster, from the clusters' first scalars (`leads`) and
    /// widths, and the opportunities and prohibitions the source made explicit (soft
    /// hyphens, `<wbr>`, zero-width spaces, word joiners).
    static func breaks(_ leads: PackedScalars, widths: [UInt8], explicit: [ExplicitBreak], preformatted: Bool) -> [LineBreak] {
        let count = leads.count
        var result = [LineBreak](repeating: .none, count: count)
        guard count > 0 else { return result }
        for index in 0..<count {
            let current = leads[index]
            if current == 0x0A {
                result[index] = .mandatory
                continue
            }
            if preformatted || index == count - 1 { continue }
            switch explicit[index] {
            case .prohibited: continue
            case .allowed:
                result[index] = .allowed
                continue
            case .softHyphen:
                result[index] = .softHyphen
                continue
            case .none: break
            }
            let next = leads[index + 1]
            if next == 0x20 || next == 0x0A { continue }
            if current == 0x20 {
                if !closesLine(next) { result[index] = .allowed }
                continue
            }
            // Two ASCII characters: only a hyphen between letters is an opportunity.
            if current < 0x80, next < 0x80 {
                if current == 0x2D, index > 0, isLetter(leads[index - 1]), isLetter(next) { result[index] = .allowed }
                continue
            }
            if isGlue(current) || isGlue(next) { continue }
            if allowsBreakAroundDash(previous: index > 0 ? leads[index - 1] : nil, current: current, next: next) {
                result[index] = .allowed
                continue
            }
            let wideHere = widths[index] == 2 && !isHangul(current)
            let wideNext = widths[index + 1] == 2 && !isHangul(next)
            if wideHere || wideNext {
                if mayNotStartLine(next) || mayNotEndLine(current) { continue }
                if current == next, inseparable.contains(current) { continue }
                result[index] = .allowed
            }
        }
        return result
    }

    /// Hyphen and en dash between letters: break after. Em dash: break before and after,
    /// not between two of them, not after opening or before closing punctuation.
    private static func allowsBreakAroundDash(previous: UInt32?, current: UInt32, next: UInt32) -> Bool {
        switch current {
        case 0x2D, 0x2010, 0x2013:
            guard let previous, isLetter(previous), isLetter(next) else { return false }
            return true
        case 0x2014, 0x2015:
            return next != current && !closesLine(next) && !mayNotStartLine(next)
        default:
            break
        }
        if next == 0x2014 || next == 0x2015 {
            return current != next && current != 0x20 && !mayNotEndLine(current)
        }
        return false
    }

    static func isLetter(_ value: UInt32) -> Bool {
        if value < 0x80 {
            return (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
        }
        return Unicode.Scalar(value)?.properties.isAlphabetic ?? false
    }

    /// Characters that keep their neighbours on the same line: no-break spaces, word joiner.
    static func isGlue(_ value: UInt32) -> Bool {
        switch value {
        case 0xA0, 0x202F, 0x2007, 0x2060, 0xFEFF: return true
        default: return false
        }
    }

    static func isHangul(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7AF: return true
        default: return false
        }
    }

    /// Latin closing punctuation that never starts a line, even after a space ("mot !").
    static func closesLine(_ value: UInt32) -> Bool {
        mayNotStartLine(value)
    }

    /// Characters a line may not start with (行頭禁則): closing brackets and quotes, Japanese
    /// and Chinese punctuation, iteration marks, the prolonged sound mark and small kana.
    static func mayNotStartLine(_ value: UInt32) -> Bool {
        if value < 0x80 {
            switch value {
            case 0x21, 0x25, 0x29, 0x2C, 0x2E, 0x3A, 0x3B, 0x3F, 0x5D, 0x7D: return true  // ! % ) , . : ; ? ] }
            default: return false
            }
        }
        return noLineStart.contains(value)
    }

    /// Characters a line may not end with (行末禁則): opening brackets and quotes.
    static func mayNotEndLine(_ value: UInt32) -> Bool {
        if value < 0x80 { return value == 0x28 || value == 0x5B || value == 0x7B }  // ( [ {
        return noLineEnd.contains(value)
    }

    private static func scalars(_ text: String) -> Set<UInt32> {
        Set(text.unicodeScalars.map(\.value))
    }

    private static let noLineStart: Set<UInt32> = scalars(
        "、。，．・：；？！‼⁇⁈⁉゛゜ヽヾゝゞ々〻ー〜～‐゠–…‥"
        + "」』）］｝〕〉》】〙〗〟’”｠»›"
        + "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ"
        + "ｧｨｩｪｫｬｭｮｯｰ％"
    )

    private static let noLineEnd: Set<UInt32> = scalars("「『（［｛〔〈《【〘〖〝‘“｟«‹")

    /// Pairs that are never split: two-cell ellipses and dashes.
    private static let inseparable: Set<UInt32> = [0x2026, 0x2025, 0x2014, 0x2015]
}

/// A break opportunity or prohibition made explicit by the source.
enum ExplicitBreak: UInt8, Sendable {
    case none, allowed, softHyphen, prohibited
}

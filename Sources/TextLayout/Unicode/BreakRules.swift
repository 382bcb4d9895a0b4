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
    /// The break kinds after each cluster of `characters` (with their `widths`), given the
    /// opportunities and prohibitions the source made explicit (soft hyphens, `<wbr>`,
    /// zero-width spaces, word joiners).
    static func breaks(_ characters: [Character], widths: [UInt8], explicit: [ExplicitBreak], preformatted: Bool) -> [LineBreak] {
        let count = characters.count
        var result = [LineBreak](repeating: .none, count: count)
        guard count > 0 else { return result }
        for index in 0..<count {
            let current = characters[index]
            if current == "\n" {
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
            let next = characters[index + 1]
            if next == " " || next == "\n" { continue }
            if current == " " {
                if !closesLine(next) { result[index] = .allowed }
                continue
            }
            if isGlue(current) || isGlue(next) { continue }
            let previous: Character? = index > 0 ? characters[index - 1] : nil
            if allowsBreakAroundDash(previous: previous, current: current, next: next) {
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
    private static func allowsBreakAroundDash(previous: Character?, current: Character, next: Character) -> Bool {
        if current == "-" || current == "\u{2010}" || current == "\u{2013}" {
            guard let previous, previous.isLetter, next.isLetter else { return false }
            return true
        }
        if current == "\u{2014}" || current == "\u{2015}" {
            return next != current && !closesLine(next) && !mayNotStartLine(next)
        }
        if next == "\u{2014}" || next == "\u{2015}" {
            return current != next && current != " " && !mayNotEndLine(current)
        }
        return false
    }

    /// Characters that keep their neighbours on the same line: no-break spaces, word joiner.
    static func isGlue(_ character: Character) -> Bool {
        switch character {
        case "\u{00A0}", "\u{202F}", "\u{2007}", "\u{2060}", "\u{FEFF}": return true
        default: return false
        }
    }

    static func isHangul(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        switch scalar.value {
        case 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7AF: return true
        default: return false
        }
    }

    /// Latin closing punctuation that never starts a line, even after a space ("mot !").
    static func closesLine(_ character: Character) -> Bool {
        switch character {
        case "!", "?", ",", ".", ";", ":", ")", "]", "}", "»": return true
        default: return mayNotStartLine(character) && character != "\u{2014}"
        }
    }

    /// Characters a line may not start with (行頭禁則): closing brackets and quotes, Japanese
    /// and Chinese punctuation, iteration marks, the prolonged sound mark and small kana.
    static func mayNotStartLine(_ character: Character) -> Bool {
        noLineStart.contains(character)
    }

    /// Characters a line may not end with (行末禁則): opening brackets and quotes.
    static func mayNotEndLine(_ character: Character) -> Bool {
        noLineEnd.contains(character)
    }

    private static let noLineStart: Set<Character> = Set(
        "、。，．・：；？！‼⁇⁈⁉゛゜ヽヾゝゞ々〻ー〜～‐゠–…‥"
        + "」』）］｝〕〉》】〙〗〟’”｠»›)]},.:;!?%"
        + "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ"
        + "ｧｨｩｪｫｬｭｮｯｰ％"
    )

    private static let noLineEnd: Set<Character> = Set("「『（［｛〔〈《【〘〖〝‘“｟«‹([{")

    /// Pairs that are never split: two-cell ellipses and dashes.
    private static let inseparable: Set<Character> = ["…", "‥", "—", "―"]
}

/// A break opportunity or prohibition made explicit by the source.
enum ExplicitBreak: UInt8, Sendable {
    case none, allowed, softHyphen, prohibited
}

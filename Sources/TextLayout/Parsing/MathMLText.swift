import LibXML

/// Presentation MathML told as one line of text a terminal can show: `(a+b)/(c+d)`, `x²`, `xᵢ`,
/// `√x`, `∛x`, matrices as rows `[1 2; 3 4]`. Unicode super- and subscripts are used when every
/// character of a script has one, `^(…)` and `_(…)` otherwise, so nothing is lost.
enum MathMLText {
    /// Deeper markup is told as its plain text: the nesting of a formula is bounded by its author,
    /// a hostile document's is not.
    static let maximumDepth = 48
    /// Longer formulas are cut: one is a line of a paragraph, not a chapter.
    static let maximumLength = 4_000

    /// The linear text of `math`, or nil when it shows nothing.
    static func linear(_ math: XMLElement) -> String? {
        var text = collapsed(render(math, depth: 0))
        if text.count > maximumLength { text = String(text.prefix(maximumLength)) + "…" }
        return text.isEmpty ? nil : text
    }

    /// Whether an `alttext` tells the formula rather than that it has no description
    /// (some books put "Alternative text not available" on every formula).
    static func isMeaningful(alttext: String) -> Bool {
        let text = alttext.trimmed.lowercased()
        let empty = ["", "math", "mathml", "equation", "formula", "image", "alt", "alttext", "none", "n/a"]
        return !empty.contains(text) && !text.contains("not available") && !text.contains("no alt")
    }

    // MARK: - Rendering

    static func render(_ element: XMLElement, depth: Int) -> String {
        guard depth < maximumDepth else { return element.normalizedText }
        let children = element.children
        let next = depth + 1
        func child(_ index: Int) -> String {
            index < children.count ? collapsed(render(children[index], depth: next)) : ""
        }
        switch element.localName.lowercased() {
        case "mi", "mn", "mtext", "ms":
            return token(element.normalizedText)
        case "mo":
            return op(element.normalizedText)
        case "mspace":
            return " "
        case "mphantom", "annotation", "annotation-xml", "none", "mprescripts", "maligngroup", "malignmark":
            return ""
        case "semantics":
            // The first child is the presentation; annotations (TeX, content MathML) follow.
            if let first = children.first, !["annotation", "annotation-xml"].contains(first.localName.lowercased()) {
                return render(first, depth: next)
            }
            return children.first { $0.localName.lowercased() == "annotation" }?.normalizedText ?? ""
        case "mfrac":
            return group(child(0)) + "/" + group(child(1))
        case "msup":
            return base(child(0)) + raised(child(1))
        case "msub":
            return base(child(0)) + lowered(child(1))
        case "msubsup":
            return base(child(0)) + lowered(child(1)) + raised(child(2))
        case "munder":
            return base(child(0)) + lowered(child(1))
        case "mover":
            return over(child(0), child(1), accent: element.attribute("accent") == "true")
        case "munderover":
            return base(child(0)) + lowered(child(1)) + raised(child(2))
        case "mmultiscripts":
            return base(child(0)) + (1..<max(children.count, 1)).map { index in
                index % 2 == 1 ? lowered(child(index)) : raised(child(index))
            }.joined()
        case "msqrt":
            return "√" + group(row(children, depth: next))
        case "mroot":
            return root(index: child(1)) + group(child(0))
        case "mfenced":
            let open = element.attribute("open") ?? "(", close = element.attribute("close") ?? ")"
            let separators = Array((element.attribute("separators") ?? ",").filter { !$0.isWhitespace })
            var result = open
            for (index, item) in children.enumerated() {
                if index > 0, !separators.isEmpty { result += String(separators[min(index - 1, separators.count - 1)]) + " " }
                result += collapsed(render(item, depth: next))
            }
            return bareTable(result, open: open) + close
        case "mtable":
            return "[" + table(children, depth: next) + "]"
        case "mtr", "mlabeledtr":
            return children.map { collapsed(render($0, depth: next)) }.joined(separator: " ")
        default:
            // mrow, mstyle, mpadded, menclose, merror, math and anything unknown: the children in order.
            return fencedTable(children, depth: next) ?? row(children, depth: next)
        }
    }

    static func row(_ children: [XMLElement], depth: Int) -> String {
        collapsed(children.map { render($0, depth: depth) }.joined())
    }

    /// The rows of a table, cells apart and rows after `;`.
    static func table(_ rows: [XMLElement], depth: Int) -> String {
        rows.map { row in
            let cells = row.localName.lowercased() == "mlabeledtr" ? Array(row.children.dropFirst()) : row.children
            return cells.map { collapsed(render($0, depth: depth)) }.joined(separator: " ")
        }.joined(separator: "; ")
    }

    /// `( table )` in a row: the matrix keeps the author's brackets instead of gaining `[…]`.
    static func fencedTable(_ children: [XMLElement], depth: Int) -> String? {
        guard children.count == 3, children[0].localName == "mo", children[2].localName == "mo",
              children[1].localName == "mtable" else { return nil }
        return children[0].normalizedText + table(children[1].children, depth: depth) + children[2].normalizedText
    }

    /// An `mfenced` around one table: its fences replace the table's brackets.
    static func bareTable(_ text: String, open: String) -> String {
        let inner = text.dropFirst(open.count)
        guard inner.hasPrefix("["), inner.hasSuffix("]"), !inner.dropFirst().contains("[") else { return text }
        return open + inner.dropFirst().dropLast()
    }

    static func token(_ text: String) -> String {
        // Invisible operators (function application, invisible times and separator) show nothing.
        String(text.unicodeScalars.filter { !(0x2061...0x2064).contains($0.value) }.map(Character.init))
    }

    static let spacedOperators: Set<String> = [
        "=", "≠", "<", ">", "≤", "≥", "≈", "≡", "≅", "∼", "≃", "∝", "→", "←", "↔", "⇒", "⇐", "⇔", "↦",
        "∈", "∉", "⊂", "⊃", "⊆", "⊇", ":=", "≔", "<=", ">=", "!=",
    ]

    static func op(_ text: String) -> String {
        if text == "\u{2061}" { return " " }
        let text = token(text)
        if spacedOperators.contains(text) { return " \(text) " }
        if text == "," || text == ";" { return text + " " }
        return text
    }

    /// Whether `text` reads as one unit next to `/`, a script or a root.
    static func isAtomic(_ text: String) -> Bool {
        if text.count <= 1 { return true }
        if let first = text.first, let last = text.last, let close = closing[first], close == last, isBalanced(text.dropFirst().dropLast()) {
            return true
        }
        // Letters, digits, primes and the scripts already attached: `2x`, `x²`, `aᵢⱼ`, `3.14`.
        return text.allSatisfy { $0.isLetter || $0.isNumber || ".′″‴".contains($0) || $0.unicodeScalars.first.map { superOrSub.contains($0) } == true }
    }

    static let superOrSub = Set(superscripts.values.compactMap(\.unicodeScalars.first) + subscripts.values.compactMap(\.unicodeScalars.first))

    static let closing: [Character: Character] = ["(": ")", "[": "]", "{": "}", "|": "|", "⟨": "⟩", "‖": "‖"]

    static func isBalanced(_ text: Substring) -> Bool {
        var depth = 0
        for character in text {
            if "([{⟨".contains(character) { depth += 1 }
            if ")]}⟩".contains(character) { depth -= 1; if depth < 0 { return false } }
        }
        return depth == 0
    }

    static func group(_ text: String) -> String { isAtomic(text) ? text : "(\(text))" }

    static func base(_ text: String) -> String {
        // An operator such as ∑ or ∫ is a base as it is.
        isAtomic(text) || text.count == 1 ? text : "(\(text))"
    }

    static func raised(_ text: String) -> String {
        let compact = text.filter { $0 != " " }
        if compact.isEmpty { return "" }
        if compact == "′" || compact == "″" || compact == "‴" || compact == "*" { return compact }
        if let mapped = mapped(compact, superscripts) { return mapped }
        return "^" + scriptGroup(compact)
    }

    static func lowered(_ text: String) -> String {
        let compact = text.filter { $0 != " " }
        if compact.isEmpty { return "" }
        if let mapped = mapped(compact, subscripts) { return mapped }
        return "_" + scriptGroup(compact)
    }

    /// A script of more than one character in brackets, so `e^(iθ)` is not read `e^i θ`.
    static func scriptGroup(_ text: String) -> String {
        text.count == 1 || isAtomic(text) && closing[text.first ?? " "] != nil ? text : "(\(text))"
    }

    static func mapped(_ text: String, _ table: [Character: Character]) -> String? {
        var result = ""
        for character in text {
            guard let mapped = table[character] else { return nil }
            result.append(mapped)
        }
        return result
    }

    static func root(index: String) -> String {
        switch index.filter({ $0 != " " }) {
        case "", "2": "√"
        case "3": "∛"
        case "4": "∜"
        case let other: (mapped(other, superscripts) ?? "(\(other))") + "√"
        }
    }

    static func over(_ base: String, _ mark: String, accent: Bool) -> String {
        let combining: [String: Character] = ["¯": "\u{0304}", "‾": "\u{0305}", "^": "\u{0302}", "ˆ": "\u{0302}",
                                              "~": "\u{0303}", "˜": "\u{0303}", "→": "\u{20D7}", "⃗": "\u{20D7}",
                                              "˙": "\u{0307}", "¨": "\u{0308}", "ˇ": "\u{030C}"]
        if base.count == 1, let mark = combining[mark.filter { $0 != " " }] { return base + String(mark) }
        return self.base(base) + raised(mark)
    }

    /// One space between words, none at the ends, none inside brackets' edges.
    static func collapsed(_ text: String) -> String {
        var result = ""
        var pendingSpace = false
        for character in text {
            if character == " " || character == "\n" || character == "\t" || character == "\u{A0}" {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace, !"([{".contains(result.last ?? " "), !")]},;".contains(character) { result.append(" ") }
            pendingSpace = false
            result.append(character)
        }
        return result
    }

    static let superscripts: [Character: Character] = [
        "0": "⁰", "1": "¹", "2": "²", "3": "³", "4": "⁴", "5": "⁵", "6": "⁶", "7": "⁷", "8": "⁸", "9": "⁹",
        "+": "⁺", "-": "⁻", "−": "⁻", "=": "⁼", "(": "⁽", ")": "⁾", "a": "ᵃ", "b": "ᵇ", "c": "ᶜ", "d": "ᵈ",
        "e": "ᵉ", "f": "ᶠ", "g": "ᵍ", "h": "ʰ", "i": "ⁱ", "j": "ʲ", "k": "ᵏ", "l": "ˡ", "m": "ᵐ", "n": "ⁿ",
        "o": "ᵒ", "p": "ᵖ", "r": "ʳ", "s": "ˢ", "t": "ᵗ", "u": "ᵘ", "v": "ᵛ", "w": "ʷ", "x": "ˣ", "y": "ʸ",
        "z": "ᶻ", "T": "ᵀ",
    ]

    static let subscripts: [Character: Character] = [
        "0": "₀", "1": "₁", "2": "₂", "3": "₃", "4": "₄", "5": "₅", "6": "₆", "7": "₇", "8": "₈", "9": "₉",
        "+": "₊", "-": "₋", "−": "₋", "=": "₌", "(": "₍", ")": "₎", "a": "ₐ", "e": "ₑ", "h": "ₕ", "i": "ᵢ",
        "j": "ⱼ", "k": "ₖ", "l": "ₗ", "m": "ₘ", "n": "ₙ", "o": "ₒ", "p": "ₚ", "r": "ᵣ", "s": "ₛ", "t": "ₜ",
        "u": "ᵤ", "v": "ᵥ", "x": "ₓ",
    ]
}

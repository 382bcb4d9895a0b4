/// List markers: numbers in the list's `type` (1, a, A, i, I) and bullets by nesting depth.
enum ListNumbering {
    /// The marker of item `value` of an ordered list of `type` (HTML `type` attribute), e.g. `iv.`.
    static func marker(_ value: Int, type: String) -> String {
        let number: String
        switch type {
        case "a": number = alphabetic(value, uppercase: false)
        case "A": number = alphabetic(value, uppercase: true)
        case "i": number = roman(value)
        case "I": number = roman(value).uppercased()
        default: number = String(value)
        }
        return number + "."
    }

    /// The bullet of an unordered list nested `depth` lists deep.
    static func bullet(depth: Int) -> String {
        ["•", "◦", "▪"][depth % 3]
    }

    /// a, b, … z, aa, ab… (decimal outside 1…).
    static func alphabetic(_ value: Int, uppercase: Bool) -> String {
        guard value > 0 else { return String(value) }
        var remaining = value, letters: [Character] = []
        while remaining > 0 {
            remaining -= 1
            let base: UInt8 = uppercase ? 0x41 : 0x61
            letters.append(Character(Unicode.Scalar(base + UInt8(remaining % 26))))
            remaining /= 26
        }
        return String(letters.reversed())
    }

    /// Lower-case roman numerals (decimal outside 1…3999).
    static func roman(_ value: Int) -> String {
        guard (1...3999).contains(value) else { return String(value) }
        let symbols: [(Int, String)] = [(1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
                                        (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]
        var remaining = value, result = ""
        for (amount, symbol) in symbols {
            while remaining >= amount { result += symbol; remaining -= amount }
        }
        return result
    }
}

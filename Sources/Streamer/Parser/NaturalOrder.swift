/// Compares strings the way people sort file names: runs of digits by value, so that
/// `page2.jpg` comes before `page10.jpg`; otherwise case-insensitively.
func naturallyPrecedes(_ lhs: String, _ rhs: String) -> Bool {
    var left = Array(lhs.lowercased().unicodeScalars)[...]
    var right = Array(rhs.lowercased().unicodeScalars)[...]
    func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
    while let l = left.first, let r = right.first {
        if isDigit(l), isDigit(r) {
            let leftDigits = left.prefix(while: isDigit), rightDigits = right.prefix(while: isDigit)
            let leftValue = leftDigits.drop { $0 == "0" }, rightValue = rightDigits.drop { $0 == "0" }
            if leftValue.count != rightValue.count { return leftValue.count < rightValue.count }
            if !leftValue.elementsEqual(rightValue) { return leftValue.lexicographicallyPrecedes(rightValue) }
            left = left.dropFirst(leftDigits.count)
            right = right.dropFirst(rightDigits.count)
            continue
        }
        if l != r { return l.value < r.value }
        left = left.dropFirst()
        right = right.dropFirst()
    }
    if left.isEmpty != right.isEmpty { return left.isEmpty }
    return lhs < rhs
}

/// Whether an archive entry is junk that publications never mean: folders, hidden files
/// (a segment starting with `.`, e.g. `.DS_Store`, `__MACOSX/._x`), `Thumbs.db`.
func isIgnoredEntry(_ path: String) -> Bool {
    if path.hasSuffix("/") { return true }
    let segments = path.split(separator: "/")
    if segments.contains(where: { $0.hasPrefix(".") || $0 == "__MACOSX" }) { return true }
    return segments.last.map { $0.lowercased() == "thumbs.db" } ?? true
}

import Shared

/// SMIL 3.0 clock values, as used by `media:duration`: `0:33:35.025`, `05:30`, `12.5s`,
/// `3min`, `1h`, `200ms`, `42`.
enum SMILClockValue {
    /// The duration in seconds, or nil when the value is not a clock value.
    static func seconds(_ value: String) -> Double? {
        let text = value.trimmed
        guard !text.isEmpty else { return nil }
        if text.contains(":") {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2 || parts.count == 3 else { return nil }
            var total = 0.0
            for part in parts {
                guard let number = Double(part), number.isFinite, number >= 0 else { return nil }
                total = total * 60 + number
            }
            return total
        }
        for (suffix, factor) in [("ms", 0.001), ("min", 60.0), ("h", 3600.0), ("s", 1.0)] where text.hasSuffix(suffix) {
            guard let number = Double(text.dropLast(suffix.count)), number.isFinite, number >= 0 else { return nil }
            return number * factor
        }
        guard let number = Double(text), number.isFinite, number >= 0 else { return nil }
        return number
    }
}

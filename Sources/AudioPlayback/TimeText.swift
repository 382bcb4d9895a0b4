import Shared

/// Times as text, without Foundation's formatters.
public enum TimeText {
    /// Seconds with at most three decimals and no trailing zeros: `12`, `12.5`, `0.125`
    /// (what media fragments and mpv's options take).
    public static func seconds(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let millis = (max(0, value) * 1000).clampedInt
        let whole = millis / 1000, fraction = millis % 1000
        guard fraction > 0 else { return String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.last == "0" { digits.removeLast() }
        return "\(whole).\(digits)"
    }

    /// `h:mm:ss` or `m:ss` for a status line.
    public static func clock(_ value: Double) -> String {
        let total = value.isFinite ? max(0, value.rounded(.down)).clampedInt : 0
        let hours = total / 3600, minutes = total / 60 % 60, secs = total % 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(secs))" : "\(minutes):\(two(secs))"
    }
}

/// Ranges for the numbers a publication declares: a duration, a bitrate or a position in a
/// series comes from outside and may be `1e300`. Values out of range are dropped where they are
/// parsed, so nothing further on (formatting, seeking, arithmetic) meets them.
public enum ExternalNumbers {
    /// The longest duration believed, in seconds (about 31 years).
    public static let maxDuration = 1e9
    /// The largest bitrate believed, in bits per second.
    public static let maxBitrate = 1e12
    /// The largest position in a series believed, either way from zero.
    public static let maxSeriesPosition = 1e9

    /// `value` when it is a finite duration of at most ``maxDuration`` seconds.
    public static func duration(_ value: Double?) -> Double? {
        value.flatMap { $0.isFinite && (0...maxDuration).contains($0) ? $0 : nil }
    }

    /// `value` when it is a finite bitrate of at most ``maxBitrate``.
    public static func bitrate(_ value: Double?) -> Double? {
        value.flatMap { $0.isFinite && (0...maxBitrate).contains($0) ? $0 : nil }
    }

    /// `value` when it is a finite position in a series within ±``maxSeriesPosition``.
    public static func seriesPosition(_ value: Double?) -> Double? {
        value.flatMap { $0.isFinite && abs($0) <= maxSeriesPosition ? $0 : nil }
    }
}

extension Double {
    /// The value rounded to the nearest integer and clamped to ±2⁵³ (0 for NaN): a total
    /// conversion, where `Int(_:)` traps on values beyond `Int`'s range.
    public var clampedInt: Int {
        guard !isNaN else { return 0 }
        let limit = 9_007_199_254_740_992.0
        return Int(Swift.min(Swift.max(rounded(), -limit), limit))
    }
}

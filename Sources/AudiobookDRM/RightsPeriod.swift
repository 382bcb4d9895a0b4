import FoundationEssentials
import Shared

/// The validity period of a Feedbooks audiobook: `metadata["…/audiobooks/rights"]` with
/// `start` and `end` instants, either of which may be `null` or absent. Bounds are inclusive.
struct RightsPeriod: Sendable {
    var start: Date?
    var end: Date?
    /// Bounds present but unreadable, ignored (a skip, not a failure: audiobook-drm.md §5).
    var unreadableBounds: [String]

    /// Reads the rights object; nil when it is not an object.
    init?(json: JSONValue) {
        guard let object = json.object else { return nil }
        unreadableBounds = []
        func bound(_ name: String) -> Date? {
            guard let value = object[name], value != .null else { return nil }
            if let text = value.string, let date = ISO8601Instant.parse(text) { return date }
            unreadableBounds.append(name)
            return nil
        }
        start = bound("start")
        end = bound("end")
    }

    /// Checks `now` against the period.
    func check(now: Date) -> AudiobookDRMReport.Outcome {
        if let start, now < start { return .failed(.notYetAvailable(start)) }
        if let end, now > end { return .failed(.expired(end)) }
        if start == nil, end == nil {
            return .skipped(unreadableBounds.isEmpty ? "the rights period has no bounds"
                : "the rights period's \(unreadableBounds.joined(separator: " and ")) could not be read")
        }
        return .passed
    }

    /// The check of a manifest's rights member (absent → skipped).
    static func check(_ json: JSONValue?, now: Date) -> AudiobookDRMReport.Outcome {
        guard let json else { return .skipped("the manifest has no rights period") }
        guard let period = RightsPeriod(json: json) else { return .skipped("the rights period is not a JSON object") }
        return period.check(now: now)
    }
}

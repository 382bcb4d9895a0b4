import FoundationEssentials
import Shared

/// The validity period of a Feedbooks audiobook: `metadata["…/audiobooks/rights"]` with
/// `start` and `end` instants, either of which may be `null` or absent. Bounds are inclusive.
struct RightsPeriod: Sendable {
    var start: Date?
    var end: Date?
    /// Bounds present but unreadable. They fail the check: a period that cannot be read
    /// cannot be shown to be current (audiobook-drm.md §5 suggests a skip; rights fail
    /// closed here, as LCP's do).
    var unreadableBounds: [String]

    /// Reads the rights object; nil when it is not an object.
    init?(json: JSONValue) {
        guard let object = json.object else { return nil }
        unreadableBounds = []
        func bound(_ name: String) -> Date? {
            guard let value = object[name], value != .null else { return nil }
            if let text = value.string, let date = RFC3339Date.parse(text) { return date }
            unreadableBounds.append(name)
            return nil
        }
        start = bound("start")
        end = bound("end")
    }

    /// Checks `now` against the period.
    func check(now: Date) -> AudiobookDRMReport.Outcome {
        if !unreadableBounds.isEmpty { return .failed(.unreadableRightsPeriod(unreadableBounds.joined(separator: " and "))) }
        if let start, now < start { return .failed(.notYetAvailable(start)) }
        if let end, now > end { return .failed(.expired(end)) }
        if start == nil, end == nil { return .skipped("the rights period has no bounds") }
        return .passed
    }

    /// The check of a manifest's rights member (absent or null → skipped; present but not an
    /// object → failed).
    static func check(_ json: JSONValue?, now: Date) -> AudiobookDRMReport.Outcome {
        guard let json, json != .null else { return .skipped("the manifest has no rights period") }
        guard let period = RightsPeriod(json: json) else { return .failed(.unreadableRightsPeriod("it is not a JSON object")) }
        return period.check(now: now)
    }
}

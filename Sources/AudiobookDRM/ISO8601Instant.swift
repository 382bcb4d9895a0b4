import FoundationEssentials
import Shared

/// The instants of the Feedbooks rights object: RFC 3339 timestamps in UTC or with an offset,
/// fractional seconds allowed (`2020-02-19T00:00:00Z`); a bare date is read as midnight UTC.
/// Read with the project's one parser, ``RFC3339Date``.
enum ISO8601Instant {
    /// The instant of `text`, or nil when it is not a timestamp.
    static func parse(_ text: String) -> Date? {
        RFC3339Date.parse(text)
    }

    /// `date` for people, in UTC: `2020-02-19 00:00 UTC` (the form LCP messages use too).
    static func display(_ date: Date) -> String {
        RFC3339Date.display(date)
    }
}

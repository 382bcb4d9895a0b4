import FoundationEssentials

/// The instants of the Feedbooks rights object: ISO 8601 / RFC 3339 timestamps in UTC or with an
/// offset, fractional seconds allowed (`2020-02-19T00:00:00Z`); a bare date is read as
/// midnight UTC.
enum ISO8601Instant {
    /// The instant of `text`, or nil when it is not a timestamp.
    static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmed
        guard !trimmed.isEmpty, trimmed.count <= 64 else { return nil }
        if let date = try? Date.ISO8601FormatStyle().parse(trimmed) { return date }
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(trimmed) { return date }
        return try? Date.ISO8601FormatStyle().year().month().day().parse(trimmed)
    }

    /// `date` for people, in UTC: `2020-02-19 00:00 UTC` (the form LCP messages use too).
    static func display(_ date: Date) -> String {
        // `2020-02-19 00:00:00Z` without the seconds and the zone letter.
        let full = date.formatted(Date.ISO8601FormatStyle(dateTimeSeparator: .space, timeZone: .gmt))
        return String(full.prefix(16)) + " UTC"
    }
}

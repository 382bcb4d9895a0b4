import FoundationEssentials
import Shared

/// HTTP dates in the one format servers send (RFC 9110 `IMF-fixdate`,
/// `Sun, 06 Nov 1994 08:49:37 GMT`), written and read without a locale (day and month names
/// are always English) and without a calendar library.
enum HTTPDate {
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `date`, to the second (HTTP dates have no fractions).
    static func format(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let day = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - day * 86_400
        let (year, month, dayOfMonth) = RFC3339Date.civilFromDays(Int(day))
        let weekday = weekdays[Int(((day % 7) + 7) % 7)]
        func two(_ value: some BinaryInteger) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekday), \(two(dayOfMonth)) \(months[month - 1]) \(year) "
            + "\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60)) GMT"
    }

    /// The date of an `IMF-fixdate`; nil for anything else (the obsolete RFC 850 and asctime
    /// forms included: a condition that cannot be read is ignored, as RFC 9110 allows).
    static func parse(_ text: some StringProtocol) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), weekdays.contains(String(parts[0].dropLast())),
              parts[5] == "GMT", parts[1].count == 2, let dayOfMonth = Int64(parts[1]), (1...31).contains(dayOfMonth),
              let monthIndex = months.firstIndex(of: String(parts[2])), parts[3].count == 4, let year = Int64(parts[3])
        else { return nil }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
              let hour = Int64(clock[0]), let minute = Int64(clock[1]), let second = Int64(clock[2]),
              hour < 24, minute < 60, second < 61
        else { return nil }
        let day = Int64(RFC3339Date.daysFromCivil(year: Int(year), month: monthIndex + 1, day: Int(dayOfMonth)))
        return Date(timeIntervalSince1970: TimeInterval(day * 86_400 + hour * 3600 + minute * 60 + second))
    }
}

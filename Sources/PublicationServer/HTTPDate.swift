import FoundationEssentials

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
        let (year, month, dayOfMonth) = civil(fromDays: day)
        let weekday = weekdays[Int(((day % 7) + 7) % 7)]
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekday), \(two(dayOfMonth)) \(months[Int(month) - 1]) \(year) "
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
        let day = days(fromCivil: year, Int64(monthIndex + 1), dayOfMonth)
        return Date(timeIntervalSince1970: TimeInterval(day * 86_400 + hour * 3600 + minute * 60 + second))
    }

    /// Howard Hinnant's `civil_from_days`: the proleptic Gregorian date of a day since 1970-01-01.
    private static func civil(fromDays day: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = day + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let dayOfMonth = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, dayOfMonth)
    }

    /// Its inverse, `days_from_civil`.
    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

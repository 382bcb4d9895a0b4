import FoundationEssentials

/// RFC 3339 timestamps, the one parser of the project (LCP and License Status documents, signed
/// audiobook rights, the library's dates): `Z` or a `±hh:mm` offset, 0 to 9 fraction digits
/// (`2017-10-31T11:23:03.250720346Z`).
///
/// A small dedicated parser rather than Foundation's formatters, which need one set of
/// options per variant. It also tolerates what some writers produce: a lower-case `t`/`z`, a
/// space for `T`, a missing zone (read as UTC) and a bare date (midnight UTC).
public enum RFC3339Date {
    /// The date of `text`, or nil when it is not a timestamp.
    public static func parse(_ text: String) -> Date? {
        // Surrounding white space is tolerated; anything long is not a timestamp.
        let text = text.trimmed
        guard !text.isEmpty, text.utf8.count <= 64 else { return nil }
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.digits(4), scanner.skip("-"), let month = scanner.digits(2), scanner.skip("-"),
              let day = scanner.digits(2),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var seconds = Double(daysFromCivil(year: year, month: month, day: day)) * 86_400
        if scanner.isAtEnd { return Date(timeIntervalSince1970: seconds) }

        guard scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
              let hour = scanner.digits(2), scanner.skip(":"), let minute = scanner.digits(2), scanner.skip(":"),
              let second = scanner.digits(2),
              hour < 24, minute < 60, second <= 60
        else { return nil }
        // A leap second is read as the last second of its minute.
        seconds += Double(hour * 3600 + minute * 60 + min(second, 59))
        if scanner.skip(".") {
            var fraction = 0.0, scale = 0.1, count = 0
            while let digit = scanner.digit() {
                count += 1
                guard count <= 9 else { return nil }
                fraction += Double(digit) * scale
                scale /= 10
            }
            guard count > 0 else { return nil }
            seconds += fraction
        }
        if scanner.isAtEnd { return Date(timeIntervalSince1970: seconds) }
        if scanner.skip("Z") || scanner.skip("z") {
            return scanner.isAtEnd ? Date(timeIntervalSince1970: seconds) : nil
        }
        let sign: Double
        if scanner.skip("+") { sign = 1 } else if scanner.skip("-") { sign = -1 } else { return nil }
        guard let offsetHours = scanner.digits(2), scanner.skip(":"), let offsetMinutes = scanner.digits(2),
              offsetHours < 24, offsetMinutes < 60, scanner.isAtEnd
        else { return nil }
        return Date(timeIntervalSince1970: seconds - sign * Double(offsetHours * 3600 + offsetMinutes * 60))
    }

    /// `date` as an RFC 3339 UTC timestamp with whole seconds (`2031-01-01T00:00:00Z`), the form
    /// the License Status protocol expects in `renew?end=`.
    public static func string(_ date: Date) -> String {
        let parts = components(date)
        return "\(pad(parts.year, 4))-\(pad(parts.month))-\(pad(parts.day))T\(pad(parts.hour)):\(pad(parts.minute)):\(pad(parts.second))Z"
    }

    /// `date` for people: `2031-01-01 00:00 UTC`.
    public static func display(_ date: Date) -> String {
        let parts = components(date)
        return "\(pad(parts.year, 4))-\(pad(parts.month))-\(pad(parts.day)) \(pad(parts.hour)):\(pad(parts.minute)) UTC"
    }

    static func components(_ date: Date) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        let days = total >= 0 ? total / 86_400 : -((-total + 86_399) / 86_400)
        let secondOfDay = total - days * 86_400
        let (year, month, day) = civilFromDays(days)
        return (year, month, day, secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
    }

    private static func pad(_ value: Int, _ width: Int = 2) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    private static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date (year, month, day) of a day since 1970-01-01.
    public static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { index == bytes.count }

        mutating func skip(_ character: Character) -> Bool {
            guard index < bytes.count, let ascii = character.asciiValue, bytes[index] == ascii else { return false }
            index += 1
            return true
        }

        mutating func digit() -> Int? {
            guard index < bytes.count, (0x30...0x39).contains(bytes[index]) else { return nil }
            index += 1
            return Int(bytes[index - 1] - 0x30)
        }

        mutating func digits(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }
    }
}
